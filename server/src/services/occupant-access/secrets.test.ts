import { LETTER_CODE_ALPHABET, LETTER_CODE_LENGTH } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeFlat, makeOccupancy } from '../../test/factories.js';
import { hashToken, issueLetterCode, issueLink, newLetterCode, normaliseLetterCode } from './secrets.js';

describe('letter codes', () => {
  it('are 10 characters of the 32-letter alphabet, every letter in use', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const code = newLetterCode();
      expect(code).toHaveLength(LETTER_CODE_LENGTH);
      for (const c of code) seen.add(c);
    }
    expect([...seen].sort().join('')).toBe([...LETTER_CODE_ALPHABET].sort().join(''));
    expect(LETTER_CODE_ALPHABET).toHaveLength(32);
    expect(LETTER_CODE_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it('are read as typed from a letter: any case, spaces and hyphens, O for 0, I or L for 1', () => {
    expect(normaliseLetterCode('ab0cd-ef1gh')).toBe('AB0CDEF1GH');
    expect(normaliseLetterCode(' abocd efigh ')).toBe('AB0CDEF1GH');
    expect(normaliseLetterCode('ABOCD-EFLGH')).toBe('AB0CDEF1GH');
    // U is not in the alphabet; the length must be exact.
    expect(normaliseLetterCode('ABCDE-FGHJU')).toBeNull();
    expect(normaliseLetterCode('ABCDE-FGHJ')).toBeNull();
    expect(normaliseLetterCode('ABCDE-FGHJKM')).toBeNull();
  });
});

describe(`issueLink, issueLetterCode (${dbKind()})`, () => {
  const t = useDb();
  let occupancy: number;

  beforeAll(async () => {
    const flat = await makeFlat(t.db, await makeBuilding(t.db));
    occupancy = await makeOccupancy(t.db, flat);
  });

  it('gives out 256-bit link tokens, several valid at once, and stores only their SHA-256', async () => {
    const a = await issueLink(t.db, occupancy);
    const b = await issueLink(t.db, occupancy);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    const { rows } = await t.db.query<{ token_hash: Uint8Array; revoked_at: string | null }>(
      'SELECT token_hash, revoked_at FROM occupant_link WHERE occupancy_id = $1 ORDER BY id',
      [occupancy],
    );
    expect(rows.map((r) => Buffer.from(r.token_hash).toString('hex'))).toEqual([
      hashToken(a).toString('hex'),
      hashToken(b).toString('hex'),
    ]);
    expect(rows.every((r) => r.revoked_at === null)).toBe(true);
  });

  it('keeps one live letter code per occupancy, stored as scrypt, never in clear', async () => {
    const first = await issueLetterCode(t.db, occupancy);
    const second = await issueLetterCode(t.db, occupancy);
    const { rows } = await t.db.query<{ code_hash: string; revoked_at: string | null }>(
      'SELECT code_hash, revoked_at FROM occupant_letter_code WHERE occupancy_id = $1 ORDER BY id',
      [occupancy],
    );
    expect(rows.map((r) => r.revoked_at === null)).toEqual([false, true]);
    for (const r of rows) {
      expect(r.code_hash.startsWith('scrypt$')).toBe(true);
      expect(r.code_hash).not.toContain(first);
      expect(r.code_hash).not.toContain(second);
    }
  });
});
