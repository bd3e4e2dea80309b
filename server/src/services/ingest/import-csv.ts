import { type CsvImportResult, MAX_CSV_LINES, MAX_LISTED_CSV_REJECTS } from '@rodmenys/contract';
import type { Db, Tx } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { findDevices } from './ingest-telegrams.js';
import { parseDecimal, parseReceptionTime } from './values.js';

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

/** Rows per COPY chunk: the text of one chunk is built at a time. */
const COPY_CHUNK = 20_000;

/**
 * Imports readings from a `serial;time;value` file: comma, semicolon or tab,
 * header optional, decimal comma or point, ISO time with or without a zone
 * (without: the provider's zone, as the database session). Idempotent on
 * (device, time). Bad lines are reported with their number and reason; the good
 * ones are imported, in one transaction: COPY into a temporary table, then one
 * INSERT … SELECT in (device, time) order.
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
  // The good lines, as parallel arrays (no object per line).
  const goodLine: number[] = [];
  const goodSerial: string[] = [];
  const goodTs: string[] = [];
  const goodValue: string[] = [];
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
    else {
      goodLine.push(i + 1);
      goodSerial.push(serial);
      goodTs.push(ts.text);
      goodValue.push(decimal);
    }
  }
  const devices = await findDevices(db, [...new Set(goodSerial)]);
  // COPY text rows "line,device,time,value": numbers, validated ISO times and decimals need no quoting.
  const copyRows: string[] = [];
  for (let g = 0; g < goodLine.length; g++) {
    const serial = goodSerial[g]!;
    const device = devices.get(serial);
    if (device) copyRows.push(`${goodLine[g]},${device.id},${goodTs[g]},${goodValue[g]}\n`);
    else reject(goodLine[g]!, serial, `no device has the serial number ${serial}`);
  }
  rejected.sort((a, b) => a.Position - b.Position);
  const stored = copyRows.length === 0 ? 0 : await db.transaction((tx) => storeReadings(tx, copyRows));
  return {
    Lines: Math.max(dataLines, 0),
    Stored: stored,
    Duplicates: copyRows.length - stored,
    RejectedCount: rejectedCount,
    Rejected: rejected,
  };
}

function* chunks(rows: string[]): Generator<string> {
  for (let from = 0; from < rows.length; from += COPY_CHUNK) yield rows.slice(from, from + COPY_CHUNK).join('');
}

/**
 * Stores the rows (COPY CSV text) and the devices' last seen time; returns how
 * many readings were new; of a reading given twice, the first line wins. The join on `device` keeps a reading from ever naming
 * a device that does not exist (`reading` has no foreign key: migration 012).
 */
async function storeReadings(tx: Tx, rows: string[]): Promise<number> {
  // Room to sort a large file in memory (the default 4 MB spills a million rows to disk).
  await tx.exec("SET LOCAL work_mem = '256MB'");
  await tx.exec(
    'CREATE TEMPORARY TABLE csv_reading (line int, device_id int, ts timestamptz, value numeric) ON COMMIT DROP',
  );
  await tx.copyIn('COPY csv_reading (line, device_id, ts, value) FROM STDIN WITH (FORMAT csv)', chunks(rows));
  const { rows: result } = await tx.query<{ stored: number }>(
    `WITH stored AS (
       INSERT INTO reading (device_id, ts, value)
       SELECT i.device_id, i.ts, i.value FROM csv_reading i JOIN device d ON d.id = i.device_id
        ORDER BY i.device_id, i.ts, i.line
       ON CONFLICT DO NOTHING
       RETURNING device_id, ts
     ), seen AS (
       INSERT INTO device_status AS s (device_id, last_seen)
       SELECT device_id, max(ts) FROM stored GROUP BY device_id ORDER BY device_id
       ON CONFLICT (device_id) DO UPDATE SET last_seen = greatest(s.last_seen, excluded.last_seen)
     )
     SELECT count(*)::int AS stored FROM stored`,
  );
  return result[0]!.stored;
}
