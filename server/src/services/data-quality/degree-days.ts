import {
  type DegreeDays,
  type DegreeDaysImportResult,
  errorText,
  MAX_DEGREE_DAY_LINES,
  MAX_MONTHLY_DEGREE_DAYS,
} from '@rodmenys/contract';
import type { Db, Queryable, Tx } from '../../db/db.js';
import { badRequest, type FieldError, HttpError, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { detectDelimiter, splitLine } from '../ingest/csv-fields.js';
import { parseDecimal } from '../ingest/values.js';

/** Cities are the level-4 locations (a flat's path[4]); docs/data-quality.md, "Degree-days". */
const CITY_LEVEL = 4;

interface City {
  id: number;
  name: string;
}

/** Every city of the master data, and the values of `year`. */
export async function listDegreeDays(db: Queryable, year: number): Promise<DegreeDays> {
  const { rows: cities } = await db.query<DegreeDays['Cities'][number]>(
    `SELECT id AS "Id", name AS "Name", region AS "Region" FROM location WHERE level = $1 ORDER BY name, region, id`,
    [CITY_LEVEL],
  );
  const { rows: values } = await db.query<DegreeDays['Values'][number]>(
    `SELECT city_id AS "CityId", to_char(month, 'YYYY-MM') AS "Month", value::float8 AS "Value"
       FROM degree_days WHERE month >= make_date($1, 1, 1) AND month < make_date($1 + 1, 1, 1)
      ORDER BY city_id, month`,
    [year],
  );
  return { Cities: cities, Values: values };
}

interface Change {
  city: City;
  month: string;
  value: number | null;
}

/**
 * Writes the changes, one audit entry per value that changed, and queues the
 * interpolated allocator month ends of the cities again: they are spread by
 * these values (docs/data-quality.md).
 */
async function applyChanges(tx: Tx, caller: Caller, changes: Change[]) {
  if (!changes.length) return { created: 0, updated: 0, unchanged: 0 };
  const { rows: before } = await tx.query<{ city_id: number; month: string; value: number }>(
    `SELECT dd.city_id, to_char(dd.month, 'YYYY-MM') AS month, dd.value::float8 AS value
       FROM degree_days dd
       JOIN json_to_recordset($1::json) AS c(city int, month text) ON dd.city_id = c.city AND dd.month = (c.month || '-01')::date
        FOR UPDATE OF dd`,
    [JSON.stringify(changes.map((c) => ({ city: c.city.id, month: c.month })))],
  );
  const old = new Map(before.map((r) => [`${r.city_id}/${r.month}`, r.value]));
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  const changed = changes.filter((c) => {
    const was = old.get(`${c.city.id}/${c.month}`) ?? null;
    if (was === c.value) unchanged++;
    else if (was === null) created++;
    else updated++;
    return was !== c.value;
  });
  if (!changed.length) return { created, updated, unchanged };
  await tx.query(
    `DELETE FROM degree_days dd USING json_to_recordset($1::json) AS c(city int, month text)
      WHERE dd.city_id = c.city AND dd.month = (c.month || '-01')::date`,
    [JSON.stringify(changed.filter((c) => c.value === null).map((c) => ({ city: c.city.id, month: c.month })))],
  );
  await tx.query(
    `INSERT INTO degree_days (city_id, month, value)
     SELECT c.city, (c.month || '-01')::date, c.value FROM json_to_recordset($1::json) AS c(city int, month text, value numeric)
     ON CONFLICT (city_id, month) DO UPDATE SET value = excluded.value`,
    [
      JSON.stringify(
        changed.filter((c) => c.value !== null).map((c) => ({ city: c.city.id, month: c.month, value: c.value })),
      ),
    ],
  );
  await tx.query(
    `INSERT INTO dq_pending (device_id, month)
     SELECT me.device_id, me.month FROM month_end me
       JOIN device d ON d.id = me.device_id
       JOIN location l ON l.id = d.location_id
      WHERE me.source = 'interpolated' AND l.path[${CITY_LEVEL}] = ANY($1::int[])
     ON CONFLICT DO NOTHING`,
    [[...new Set(changed.map((c) => c.city.id))]],
  );
  const entry = (c: Change, value: number | null) =>
    value === null ? null : { City: c.city.name, Month: c.month, Value: value };
  await recordAudit(
    tx,
    changed.map((c) => ({
      actor: caller,
      kind: 'degreeDays.set' as const,
      entity: 'degreeDays',
      entityId: `${c.city.id}/${c.month}`,
      before: entry(c, old.get(`${c.city.id}/${c.month}`) ?? null),
      after: entry(c, c.value),
    })),
  );
  return { created, updated, unchanged };
}

async function cityById(db: Queryable, id: number): Promise<City | undefined> {
  const { rows } = await db.query<City>('SELECT id, name FROM location WHERE id = $1 AND level = $2', [id, CITY_LEVEL]);
  return rows[0];
}

/** Sets (or with null removes) one city's value for one month; audited. */
export async function setDegreeDays(db: Db, caller: Caller, cityId: number, month: string, value: number | null) {
  return db.transaction(async (tx) => {
    const city = await cityById(tx, cityId);
    if (!city) throw notFound('cityNotFound');
    await applyChanges(tx, caller, [{ city, month, value }]);
    return { CityId: cityId, Month: month, Value: value };
  });
}

const MONTH = /^(\d{4})-(0?[1-9]|1[0-2])$/;

/** A month as YYYY-MM (2026-1 too), years 1990–2200; undefined when it is not one. */
function parseMonth(text: string): string | undefined {
  const m = MONTH.exec(text.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  return year < 1990 || year > 2200 ? undefined : `${m[1]}-${m[2]!.padStart(2, '0')}`;
}

/**
 * Imports `city;month;value` lines (comma, semicolon or tab; an optional header
 * line; a city by its name, case and spaces aside, or by its id). Every line is
 * checked first: with one wrong line the answer is a 400 listing each wrong line,
 * and nothing is stored. Audited per value that changed.
 */
export async function importDegreeDays(db: Db, caller: Caller, text: string): Promise<DegreeDaysImportResult> {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) throw badRequest('degreeDaysEmpty', {}, 'body');
  const delimiter = detectDelimiter(lines[first]!);
  const { rows: cities } = await db.query<City>('SELECT id, name FROM location WHERE level = $1', [CITY_LEVEL]);
  const byId = new Map(cities.map((c) => [c.id, c]));
  const byName = new Map<string, City[]>();
  const key = (name: string) => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('lt');
  for (const c of cities) byName.set(key(c.name), [...(byName.get(key(c.name)) ?? []), c]);

  const errors: FieldError[] = [];
  const fail = (line: number, code: Parameters<typeof errorText>[0], params: Record<string, string> = {}) => {
    const all = { line: String(line), ...params };
    errors.push({ field: `line ${line}`, code, params: all, message: errorText(code, all) });
  };
  const changes: Change[] = [];
  const seen = new Map<string, number>();
  let dataLines = 0;
  for (let i = first; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    const line = i + 1;
    const fields = splitLine(lines[i]!, delimiter).map((f) => f.trim());
    const [cityText = '', monthText = '', valueText = ''] = fields;
    const month = parseMonth(monthText);
    const decimal = parseDecimal(valueText);
    // A first line that is neither a month nor a number is a header.
    if (i === first && fields.length === 3 && !month && decimal === undefined) continue;
    dataLines++;
    if (dataLines > MAX_DEGREE_DAY_LINES) {
      throw badRequest('tooManyCsvLines', { max: String(MAX_DEGREE_DAY_LINES) }, 'body');
    }
    if (fields.length !== 3) {
      fail(line, 'degreeDaysColumns');
      continue;
    }
    let city: City | undefined;
    if (/^\d{1,9}$/.test(cityText)) city = byId.get(Number(cityText));
    else {
      const named = byName.get(key(cityText)) ?? [];
      if (named.length > 1) fail(line, 'degreeDaysCityAmbiguous', { city: cityText });
      city = named.length === 1 ? named[0] : undefined;
    }
    if (!city && !errors.some((e) => e.field === `line ${line}`)) fail(line, 'degreeDaysCity', { city: cityText });
    if (!month) fail(line, 'degreeDaysMonth', { value: monthText });
    const value = decimal === undefined ? Number.NaN : Number(decimal);
    if (!(value >= 0 && value <= MAX_MONTHLY_DEGREE_DAYS)) {
      fail(line, 'degreeDaysValue', { value: valueText, max: String(MAX_MONTHLY_DEGREE_DAYS) });
    }
    if (!city || !month || !(value >= 0 && value <= MAX_MONTHLY_DEGREE_DAYS)) continue;
    const at = `${city.id}/${month}`;
    const earlier = seen.get(at);
    if (earlier !== undefined) {
      fail(line, 'degreeDaysRepeated', { city: city.name, month, first: String(earlier) });
      continue;
    }
    seen.set(at, line);
    changes.push({ city, month, value });
  }
  if (!dataLines) throw badRequest('degreeDaysEmpty', {}, 'body');
  if (errors.length) {
    throw new HttpError(400, 'degreeDaysInvalid', { count: String(errors.length) }, errors.slice(0, 1000));
  }
  const counts = await db.transaction((tx) => applyChanges(tx, caller, changes));
  return { Lines: dataLines, Created: counts.created, Updated: counts.updated, Unchanged: counts.unchanged };
}
