import {
  MAX_METER_KEY_LINES,
  type MeterKeyImportResult,
  type MeterKeyLine,
  type MeterKeyProblem,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import { detectDelimiter, splitLine } from '../ingest/csv-fields.js';
import { openMeterKey, sealMeterKey } from './key-crypto.js';

/** Lines listed in an answer; the rest are counted. */
const LISTED = 1000;
const MANUFACTURER = /^[A-Za-z]{3}$/;
const METER_ID = /^[0-9A-Za-z_.:-]{1,64}$/;
const HEX_KEY = /^[0-9a-fA-F]{32}$/;

interface Parsed {
  line: number;
  manufacturer: string;
  meterId: string;
  key: Buffer;
}

/** The key file's lines: `manufacturer;meter id;key` (any of ; , tab); an optional header line; blank lines skipped. */
function parseKeyFile(text: string): { lines: number; parsed: Parsed[]; problems: MeterKeyProblem[] } {
  const all = text.split(/\r?\n/);
  if (all.length > MAX_METER_KEY_LINES + 1) {
    throw badRequest('tooManyItems', { field: 'body', limit: String(MAX_METER_KEY_LINES) }, 'body');
  }
  const firstLine = all.find((l) => l.trim()) ?? '';
  const delimiter = detectDelimiter(firstLine);
  const parsed: Parsed[] = [];
  const problems: MeterKeyProblem[] = [];
  const seen = new Set<string>();
  let lines = 0;
  let first = true;
  for (const [i, raw] of all.entries()) {
    if (!raw.trim()) continue;
    const fields = splitLine(raw, delimiter).map((f) => f.trim());
    const [manufacturer = '', meterId = '', key = ''] = fields;
    if (first) {
      first = false;
      if (/manufacturer|gamintojas/i.test(manufacturer) || /^(key|raktas)$/i.test(key)) continue;
    }
    lines++;
    const line = i + 1;
    const problem: MeterKeyProblem['Problem'] | null =
      fields.length !== 3
        ? 'fields'
        : !MANUFACTURER.test(manufacturer)
          ? 'manufacturer'
          : !METER_ID.test(meterId)
            ? 'meterId'
            : !HEX_KEY.test(key)
              ? 'malformedKey'
              : seen.has(meterId)
                ? 'duplicate'
                : null;
    if (problem) {
      problems.push({ Line: line, MeterId: meterId ? meterId.slice(0, 64) : null, Problem: problem });
      continue;
    }
    seen.add(meterId);
    parsed.push({ line, manufacturer: manufacturer.toUpperCase(), meterId, key: Buffer.from(key, 'hex') });
  }
  return { lines, parsed, problems };
}

/** A device and its stored key, the bytes as hex (the same on both drivers). */
interface Stored {
  device_code: string;
  device_id: number;
  nonce: string | null;
  sealed: string | null;
  tag: string | null;
}

/** A stored key's bytes from their hex text. */
export const sealedFromHex = (s: { nonce: string; sealed: string; tag: string }) => ({
  nonce: Buffer.from(s.nonce, 'hex'),
  sealed: Buffer.from(s.sealed, 'hex'),
  tag: Buffer.from(s.tag, 'hex'),
});
export const SEALED_HEX =
  "encode(k.nonce, 'hex') AS nonce, encode(k.sealed, 'hex') AS sealed, encode(k.tag, 'hex') AS tag";

/**
 * Checks a meter key file and, when `apply` and every line is good, stores its keys
 * encrypted (AES-256-GCM under `kek`) in one transaction, audited as `actor`. Every
 * bad line is named (unknown meter, malformed key, …); a key that differs from the
 * stored one is a change. One bad line and nothing is stored. The answer never holds a key.
 */
export async function importMeterKeys(
  db: Db,
  kek: Buffer | undefined,
  text: string,
  apply: boolean,
  actor: Actor,
): Promise<MeterKeyImportResult> {
  const { lines, parsed, problems } = parseKeyFile(text);
  return db.transaction(async (tx) => {
    const { rows: stored } = await tx.query<Stored>(
      `SELECT d.device_code, d.id AS device_id, ${SEALED_HEX}
         FROM device d LEFT JOIN meter_key k ON k.device_id = d.id
        WHERE d.device_code = ANY ($1::text[])`,
      [parsed.map((p) => p.meterId)],
    );
    const byCode = new Map(stored.map((s) => [s.device_code, s]));
    const rows: (MeterKeyLine & { key: Buffer })[] = [];
    for (const p of parsed) {
      const s = byCode.get(p.meterId);
      if (!s) {
        problems.push({ Line: p.line, MeterId: p.meterId, Problem: 'unknownMeter' });
        continue;
      }
      const before =
        s.sealed && openMeterKey(kek, s.device_id, sealedFromHex({ nonce: s.nonce!, sealed: s.sealed, tag: s.tag! }));
      const change = !before ? 'new' : before.equals(p.key) ? 'unchanged' : 'changed';
      rows.push({
        Line: p.line,
        Manufacturer: p.manufacturer,
        MeterId: p.meterId,
        DeviceId: s.device_id,
        Change: change,
        key: p.key,
      });
    }
    problems.sort((a, b) => a.Line - b.Line);
    const applied = apply && problems.length === 0 && lines > 0;
    if (applied) await storeKeys(tx, kek, rows, actor);
    const count = (c: MeterKeyLine['Change']) => rows.filter((r) => r.Change === c).length;
    return {
      Lines: lines,
      Applied: applied,
      New: count('new'),
      Changed: count('changed'),
      Unchanged: count('unchanged'),
      Rows: rows.slice(0, LISTED).map(({ key: _key, ...r }) => r),
      Problems: problems.slice(0, LISTED),
      ProblemCount: problems.length,
    };
  });
}

async function storeKeys(
  tx: Queryable,
  kek: Buffer | undefined,
  rows: (MeterKeyLine & { key: Buffer })[],
  actor: Actor,
): Promise<void> {
  const write = rows.filter((r) => r.Change !== 'unchanged').sort((a, b) => a.DeviceId - b.DeviceId);
  if (write.length === 0) return;
  const sealed = write.map((r) => sealMeterKey(kek, r.DeviceId, r.key));
  await tx.query(
    `INSERT INTO meter_key (device_id, manufacturer, nonce, sealed, tag, imported_by)
     SELECT d, m, decode(n, 'hex'), decode(s, 'hex'), decode(t, 'hex'), $6::int
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[]) AS k(d, m, n, s, t)
     ON CONFLICT (device_id) DO UPDATE SET manufacturer = excluded.manufacturer, nonce = excluded.nonce,
       sealed = excluded.sealed, tag = excluded.tag, imported_at = now(), imported_by = excluded.imported_by`,
    [
      write.map((r) => r.DeviceId),
      write.map((r) => r.Manufacturer),
      sealed.map((s) => s.nonce.toString('hex')),
      sealed.map((s) => s.sealed.toString('hex')),
      sealed.map((s) => s.tag.toString('hex')),
      actor?.id ?? null,
    ],
  );
  // Which meters got a key, never the key.
  await recordAudit(tx, {
    actor,
    kind: 'meterKey.import',
    entity: 'meterKey',
    entityId: null,
    before: null,
    after: {
      NewKeys: write.filter((r) => r.Change === 'new').map((r) => r.MeterId),
      ChangedKeys: write.filter((r) => r.Change === 'changed').map((r) => r.MeterId),
    },
  });
}

/** Whether each device has a key, and since when (the UI shows only this). */
export async function keyDates(db: Queryable, deviceIds: number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ device_id: number; since: string }>(
    'SELECT device_id, iso(imported_at) AS since FROM meter_key WHERE device_id = ANY ($1::int[])',
    [deviceIds],
  );
  return new Map(rows.map((r) => [r.device_id, r.since]));
}
