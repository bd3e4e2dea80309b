import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { HttpError } from '../../errors.js';

/** A meter key as stored: AES-256-GCM under KEY_ENCRYPTION_KEY (docs/collectors.md). */
export interface SealedKey {
  nonce: Buffer;
  sealed: Buffer;
  tag: Buffer;
}

/** The key-encryption key, or a 500 that says it is not set (never happens with loadConfig()). */
function kek(key: Buffer | undefined): Buffer {
  if (key?.length !== 32) throw new HttpError(500, 'keyEncryptionMissing');
  return key;
}

/**
 * Encrypts a meter's AES key (16 bytes). The device id is the additional data: a
 * ciphertext copied to another device's row does not open.
 */
export function sealMeterKey(kekBytes: Buffer | undefined, deviceId: number, key: Buffer): SealedKey {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek(kekBytes), nonce);
  cipher.setAAD(Buffer.from(`meter_key:${deviceId}`));
  const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
  return { nonce, sealed, tag: cipher.getAuthTag() };
}

/** Decrypts a stored meter key; throws when the key-encryption key is another one or the row was tampered with. */
export function openMeterKey(kekBytes: Buffer | undefined, deviceId: number, s: SealedKey): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', kek(kekBytes), s.nonce);
  decipher.setAAD(Buffer.from(`meter_key:${deviceId}`));
  decipher.setAuthTag(s.tag);
  return Buffer.concat([decipher.update(s.sealed), decipher.final()]);
}
