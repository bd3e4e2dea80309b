/* The capacity benchmark's sizes, loading, selections and measurements (main.ts runs it). */

import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import type { Db } from '@rodmenys/server/db/db.js';
import { type Dataset, firstBuildings } from '../lib/dataset.js';
import { envInt, fmtMs, timed } from '../lib/stats.js';

export const DEVICES = envInt('BENCH_DEVICES', 13_000);
export const PART_READINGS = envInt('BENCH_CAPACITY_READINGS', 200_000_000);
export const FLAT_READINGS = envInt('BENCH_FLAT_READINGS', 20_000_000);
export const RUNS = envInt('BENCH_RUNS', 15);
export const STREAMS = envInt('BENCH_STREAMS', 2);
export const INGEST_BATCH = envInt('BENCH_INGEST_BATCH', 5_000);
export const INGEST_ROUNDS = envInt('BENCH_INGEST_ROUNDS', 6);
export const TIME_ZONE = 'Europe/Vilnius';
export const ALLOCATOR = 1;
export const HOUR = 3_600_000;
/**
 * Sized for this machine; fsync stays on (ingest answers after a durable
 * commit). wal_level minimal lets a table created and filled in one
 * transaction skip the WAL, as a bulk load would be set up.
 */
export const POSTGRES_SETTINGS = {
  shared_buffers: "'2GB'",
  work_mem: "'64MB'",
  maintenance_work_mem: "'1GB'",
  effective_cache_size: "'8GB'",
  wal_level: 'minimal',
  max_wal_senders: 0,
  max_wal_size: "'4GB'",
  max_parallel_maintenance_workers: 0,
};

export const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
export const load1 = () => loadavg()[0]!.toFixed(1);
export const gb = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);
export const diskFree = () => execFileSync('df', ['-h', '/work', '/tmp'], { encoding: 'utf8' }).trim();

/** The rows of the readings for hours [fromHour, tillHour] (whole UTC hours, inclusive), one per device and hour. */
export function readingsSelect(fromHour: Date, tillHour: Date, origin: Date): string {
  // Cumulative, strictly rising values: a per-device rate with a wave on top
  // (derivative rate * (1 + 0.4 cos) > 0); allocators count whole units.
  return `SELECT d.id, h + make_interval(mins => 3 + d.id % 55, secs => d.id % 60),
                 h + make_interval(mins => 1 + d.id % 55, secs => d.id % 60),
                 CASE WHEN d.device_type_id = 1 THEN floor(v)::numeric ELSE round(v::numeric, 3) END
            FROM generate_series('${fromHour.toISOString()}'::timestamptz, '${tillHour.toISOString()}'::timestamptz, interval '1 hour') h
           CROSS JOIN device d
           CROSS JOIN LATERAL (SELECT extract(epoch FROM h - '${origin.toISOString()}'::timestamptz)::float8 / 3600) AS kk(k)
           CROSS JOIN LATERAL (SELECT 100 + d.id * 37 % 1000
                 + (0.05 + (d.id % 17) * 0.01) * (CASE WHEN d.device_type_id = 11 THEN 400 ELSE 1 END)
                 * (k + 40 * sin(k / 100.0 + d.id))) AS x(v)
           ORDER BY h, d.id`;
}

/** Unpartitioned reading and telegram as before migration 080. */
export const FLAT_SCHEMA = `
  DROP TABLE reading CASCADE;
  DROP TABLE telegram CASCADE;
  DELETE FROM schema_migration WHERE name = '080_reading_partitions.sql';
  CREATE TABLE reading (device_id integer NOT NULL, ts timestamptz NOT NULL, meter_ts timestamptz, value numeric NOT NULL,
    CONSTRAINT reading_value_finite CHECK (value < 'Infinity' AND value > '-Infinity'));
  CREATE TABLE telegram (device_id integer NOT NULL, ts timestamptz NOT NULL, flags text[] NOT NULL DEFAULT '{}',
    set_date date, set_value numeric, raw json NOT NULL, CONSTRAINT telegram_pkey PRIMARY KEY (device_id, ts),
    CONSTRAINT telegram_set_value_finite CHECK (set_value < 'Infinity' AND set_value > '-Infinity'));
  -- One table holds every month: no month is ever missing its partition (the writers ask, migration 110).
  CREATE OR REPLACE FUNCTION month_partitions_missing(times timestamptz[]) RETURNS date[]
  LANGUAGE sql STABLE AS $$ SELECT '{}'::date[] $$;`;

export const monthStart = (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
export const nextMonth = (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1));
export const partitionName = (m: Date) => `reading_p${m.toISOString().slice(0, 7).replace('-', '')}`;

/** Loads the months of [start, end] into partitions of their own, STREAMS at a time. */
export async function loadPartitioned(db: Db, start: Date, end: Date, origin: Date) {
  // The empty months the migration created are loaded like the others.
  const { rows: existing } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'reading'::regclass AND c.relname ~ '_p[0-9]{6}$'`,
  );
  for (const { name } of existing) await db.exec(`DROP TABLE ${name}`);
  const months: Date[] = [];
  for (let m = monthStart(start); m <= end; m = nextMonth(m)) months.push(m);
  let next = 0;
  const worker = async () => {
    while (next < months.length) {
      const m = months[next++]!;
      const hi = nextMonth(m);
      const from = new Date(Math.max(m.getTime(), start.getTime()));
      const till = new Date(Math.min(hi.getTime() - HOUR, end.getTime()));
      const name = partitionName(m);
      const t = await timed(() =>
        db.transaction(async (tx) => {
          await tx.exec(`CREATE TABLE ${name} (LIKE reading INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
          await tx.exec(`INSERT INTO ${name} ${readingsSelect(from, till, origin)}`);
          await tx.exec(`ALTER TABLE ${name} ADD CONSTRAINT ${name}_pkey PRIMARY KEY (device_id, ts)`);
          await tx.exec(
            `ALTER TABLE ${name} ADD CONSTRAINT ${name}_bound CHECK (ts >= '${m.toISOString()}' AND ts < '${hi.toISOString()}')`,
          );
        }),
      );
      await db.exec(
        `ALTER TABLE reading ATTACH PARTITION ${name} FOR VALUES FROM ('${m.toISOString()}') TO ('${hi.toISOString()}');
         ALTER TABLE ${name} DROP CONSTRAINT ${name}_bound; ANALYZE ${name}`,
      );
      log(`part: ${name} loaded in ${fmtMs(t.ms)} ms (load ${load1()})`);
    }
  };
  await Promise.all(Array.from({ length: STREAMS }, worker));
  await db.query('SELECT reading_partitions_ensure(now(), 3)');
}

export interface Selection {
  label: string;
  parents: number[];
  devices: number;
}

/** Whole buildings, in order, until they hold `target` allocators. */
export function selectBuildings(dataset: Dataset, target: number): Selection {
  return { label: target.toLocaleString('en-US'), ...firstBuildings(dataset, target, ALLOCATOR) };
}

/** The last whole calendar month in the provider's zone. */
export function lastMonth(now: Date) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(now);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { dateFrom: day(new Date(Date.UTC(y, m - 2, 1))), dateTill: day(new Date(Date.UTC(y, m - 1, 0))) };
}

/** Every statement `fn` runs on `db` that reads `reading`, with its parameters. */
export async function captureReadingQueries(db: Db, fn: (db: Db) => Promise<unknown>) {
  const seen: Array<{ sql: string; params: readonly unknown[] }> = [];
  const spy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (sql: string, params?: readonly unknown[]) => {
          if (/\breading\b/.test(sql)) seen.push({ sql, params: params ?? [] });
          return target.query(sql, params);
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  await fn(spy);
  return seen;
}

/** One collector batch per round: a telegram for `count` devices, `round` hours after `end`. */
export async function telegramBatch(db: Db, count: number, at: Date) {
  const { rows } = await db.query<{ code: string; kind: string; v: string }>(
    `SELECT d.device_code AS code, t.data_load_proc AS kind, s.last_value::text AS v
       FROM device d JOIN device_type t ON t.id = d.device_type_id
       LEFT JOIN LATERAL (SELECT r.value AS last_value FROM reading r WHERE r.device_id = d.id ORDER BY r.ts DESC LIMIT 1) s ON true
      WHERE d.removed_at IS NULL ORDER BY d.id LIMIT $1`,
    [count],
  );
  const field: Record<string, string> = {
    allocator: 'current_hca',
    energy: 'total_energy_consumption_kwh',
    volume: 'total_m3',
  };
  return rows.map((r, i) => {
    const json = { id: r.code, meter: 'bench', timestamp: at.toISOString(), [field[r.kind]!]: Number(r.v ?? 0) + 1 };
    return { position: i + 1, json, raw: JSON.stringify(json) };
  });
}

export interface SizeRow {
  name: string;
  rows: number;
  heap: number;
  index: number;
}

export async function sizes(db: Db, partitioned: boolean): Promise<SizeRow[]> {
  const { rows } = await db.query<SizeRow>(
    partitioned
      ? `SELECT c.relname AS name, c.reltuples::bigint::float8 AS rows, pg_table_size(c.oid)::float8 AS heap,
                pg_indexes_size(c.oid)::float8 AS index
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'reading'::regclass ORDER BY 1`
      : `SELECT 'reading' AS name, reltuples::bigint::float8 AS rows, pg_table_size(oid)::float8 AS heap,
                pg_indexes_size(oid)::float8 AS index FROM pg_class WHERE oid = 'reading'::regclass`,
  );
  return rows;
}
