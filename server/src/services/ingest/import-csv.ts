import { type CsvImportResult, MAX_CSV_LINES, MAX_LISTED_CSV_REJECTS } from '@rodmenys/contract';
import type { Db, Tx } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { requireMonthPartitionsOf, writeIntoMonths } from '../partitions/partitions.js';
import { readingsStatement } from '../readings/store-readings.js';
import { detectDelimiter, splitLine } from './csv-fields.js';
import { findDevices } from './ingest-telegrams.js';
import { parseDecimal, parseReceptionTime } from './values.js';

/** Rows per COPY chunk: the text of one chunk is built at a time. */
const COPY_CHUNK = 20_000;

type Reject = (line: number, serial: string | null, reason: string) => void;

/** What the check of a file found besides the COPY text: the good lines' numbers and serial numbers. */
interface Checked {
  /** Data lines (not empty, not the header). */
  lines: number;
  goodLine: number[];
  goodSerial: string[];
}

/** A field for COPY's CSV format: quoted when it holds a comma, a quote or a line break. */
const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/**
 * Checks the lines one by one: bad ones go to `reject`, good ones come out as
 * COPY CSV text `line,serial,time,value` (validated ISO times and decimals need
 * no quoting), in chunks, so that PostgreSQL reads a chunk while the next is checked.
 */
function* copyChunks(lines: string[], now: Date, checked: Checked, reject: Reject): Generator<string> {
  let delimiter: string | undefined;
  let dataLines = 0;
  let chunk: string[] = [];
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
      checked.goodLine.push(i + 1);
      checked.goodSerial.push(serial);
      chunk.push(`${i + 1},${csvField(serial)},${ts.text},${decimal}\n`);
      if (chunk.length === COPY_CHUNK) {
        yield chunk.join('');
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk.join('');
  checked.lines = Math.max(dataLines, 0);
}

/**
 * Imports readings from a `serial;time;value` file: comma, semicolon or tab,
 * header optional, decimal comma or point, ISO time with or without a zone
 * (without: the provider's zone, as the database session). Idempotent on
 * (device, time). Bad lines are reported with their number and reason; the good
 * ones are imported, in one transaction: COPY into a temporary table while the
 * lines are checked, then one INSERT … SELECT in (device, time) order.
 */
export async function importCsv(db: Db, text: string, now = new Date()): Promise<CsvImportResult> {
  const lines = text.split('\n');
  if (lines.length > MAX_CSV_LINES) throw badRequest('tooManyCsvLines', { max: String(MAX_CSV_LINES) }, 'body');
  let rejected: CsvImportResult['Rejected'] = [];
  let rejectedCount = 0;
  const reject: Reject = (line, serial, reason) => {
    rejectedCount++;
    if (rejected.length < MAX_LISTED_CSV_REJECTS) rejected.push({ Position: line, MeterId: serial, Reason: reason });
  };
  let checked: Checked = { lines: 0, goodLine: [], goodSerial: [] };
  // The months written into get their partitions first; a run that found them missing starts again.
  const { known, stored } = await writeIntoMonths(db, () => {
    rejected = [];
    rejectedCount = 0;
    checked = { lines: 0, goodLine: [], goodSerial: [] };
    return db.transaction(async (tx) => {
      // Room to sort a large file in memory (the default 4 MB spills a million rows to disk).
      await tx.exec("SET LOCAL work_mem = '256MB'");
      await tx.exec(
        'CREATE TEMPORARY TABLE csv_reading (line int, serial text, ts timestamptz, value numeric) ON COMMIT DROP',
      );
      await tx.copyIn(
        'COPY csv_reading (line, serial, ts, value) FROM STDIN WITH (FORMAT csv)',
        copyChunks(lines, now, checked, reject),
      );
      const devices = await findDevices(tx, [...new Set(checked.goodSerial)]);
      let known = 0;
      for (let g = 0; g < checked.goodLine.length; g++) {
        const serial = checked.goodSerial[g]!;
        if (devices.has(serial)) known++;
        else reject(checked.goodLine[g]!, serial, `no device has the serial number ${serial}`);
      }
      if (known > 0) await requireMonthPartitionsOf(tx, 'SELECT ts FROM csv_reading');
      return { known, stored: known === 0 ? 0 : await storeReadings(tx) };
    });
  });
  rejected.sort((a, b) => a.Position - b.Position);
  return {
    Lines: checked.lines,
    Stored: stored,
    Duplicates: known - stored,
    RejectedCount: rejectedCount,
    Rejected: rejected,
  };
}

/**
 * Stores the lines of `csv_reading` whose serial number is a device's, through the one
 * reading writer (services/readings/store-readings.ts); returns how many readings were new.
 * Of a reading given twice, the first line wins. The join on `device` keeps a reading from
 * ever naming a device that does not exist (`reading` has no foreign key: migration 012).
 */
const STORE_CSV = readingsStatement({
  rows: `SELECT d.id, i.ts, NULL::timestamptz, i.value FROM csv_reading i JOIN device d ON d.device_code = i.serial
        ORDER BY d.id, i.ts, i.line`,
  onConflict: 'keep',
  fromFile: true,
  result: 'SELECT count(*)::int AS stored FROM written',
});

async function storeReadings(tx: Tx): Promise<number> {
  const { rows: result } = await tx.query<{ stored: number }>(STORE_CSV);
  return result[0]!.stored;
}
