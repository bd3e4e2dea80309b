import { type CsvImportResult, MAX_CSV_LINES, MAX_LISTED_CSV_REJECTS } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { findDevices } from './ingest-telegrams.js';
import { parseDecimal, parseReceptionTime } from './values.js';

/** Rows per INSERT: big enough to be fast, small enough for one statement's memory. */
const CHUNK = 50_000;

/** The delimiter of a file: semicolon or tab when the first line has one, else comma. */
function detectDelimiter(firstLine: string): string {
  if (firstLine.includes(';')) return ';';
  return firstLine.includes('\t') ? '\t' : ',';
}

/** Splits a line; double quotes may wrap a field ("12,5" with a comma delimiter), "" is a quote inside. */
export function splitLine(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (line[i + 1] === '"') field += line[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

interface Line {
  line: number;
  serial: string;
  ts: string;
  value: string;
}

/**
 * Imports readings from a `serial;time;value` file: comma, semicolon or tab,
 * header optional, decimal comma or point, ISO time with or without a zone
 * (without: the provider's zone, as the database session). Idempotent on
 * (device, time). Bad lines are reported with their number and reason; the good
 * ones are imported, in one transaction.
 */
export async function importCsv(db: Db, text: string, now = new Date()): Promise<CsvImportResult> {
  const lines = text.split('\n');
  if (lines.length > MAX_CSV_LINES) throw badRequest(`At most ${MAX_CSV_LINES} lines per file`, 'body');
  const rejected: CsvImportResult['Rejected'] = [];
  let rejectedCount = 0;
  const reject = (line: number, serial: string | null, reason: string) => {
    rejectedCount++;
    if (rejected.length < MAX_LISTED_CSV_REJECTS) rejected.push({ Position: line, MeterId: serial, Reason: reason });
  };
  const good: Line[] = [];
  let delimiter: string | undefined;
  let dataLines = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    delimiter ??= detectDelimiter(raw);
    const fields = splitLine(raw, delimiter).map((f) => f.trim());
    while (fields.length > 3 && fields.at(-1) === '') fields.pop();
    const [serial = '', time = '', value = ''] = fields;
    const ts = parseReceptionTime(time, now);
    const decimal = parseDecimal(value);
    // A first line that holds neither a time nor a number is a header.
    if (dataLines === 0 && typeof ts === 'string' && decimal === undefined) {
      dataLines = -1;
      continue;
    }
    dataLines = Math.max(dataLines, 0) + 1;
    if (fields.length !== 3)
      reject(
        i + 1,
        serial || null,
        `expected 3 fields (serial${delimiter}time${delimiter}value), found ${fields.length}`,
      );
    else if (serial === '' || serial.length > 64) reject(i + 1, null, 'serial number must be 1 to 64 characters');
    else if (typeof ts === 'string') reject(i + 1, serial, `time ${ts}`);
    else if (decimal === undefined) reject(i + 1, serial, `value is not a number: "${value.slice(0, 40)}"`);
    else good.push({ line: i + 1, serial, ts: ts.text, value: decimal });
  }
  const devices = await findDevices(db, [...new Set(good.map((g) => g.serial))]);
  const rows: { deviceId: number; ts: string; value: string }[] = [];
  for (const g of good) {
    const device = devices.get(g.serial);
    if (device) rows.push({ deviceId: device.id, ts: g.ts, value: g.value });
    else reject(g.line, g.serial, `no device has the serial number ${g.serial}`);
  }
  rejected.sort((a, b) => a.Position - b.Position);
  const stored =
    rows.length === 0
      ? 0
      : await db.transaction(async (tx) => {
          let n = 0;
          for (let from = 0; from < rows.length; from += CHUNK) {
            const chunk = rows.slice(from, from + CHUNK);
            const { rows: result } = await tx.query<{ stored: number }>(
              `WITH input AS (
           SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::numeric[]) AS t(device_id, ts, value)
         ), stored AS (
           INSERT INTO reading (device_id, ts, value) SELECT * FROM input
           ON CONFLICT DO NOTHING
           RETURNING device_id, ts
         ), seen AS (
           INSERT INTO device_status AS s (device_id, last_seen)
           SELECT device_id, max(ts) FROM stored GROUP BY device_id ORDER BY device_id
           ON CONFLICT (device_id) DO UPDATE SET last_seen = greatest(s.last_seen, excluded.last_seen)
         )
         SELECT count(*)::int AS stored FROM stored`,
              [chunk.map((r) => r.deviceId), chunk.map((r) => r.ts), chunk.map((r) => r.value)],
            );
            n += result[0]!.stored;
          }
          return n;
        });
  return {
    Lines: Math.max(dataLines, 0),
    Stored: stored,
    Duplicates: rows.length - stored,
    RejectedCount: rejectedCount,
    Rejected: rejected,
  };
}
