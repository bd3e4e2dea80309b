/**
 * Two look-ups, printed, not asserted, over HTTP (the real app on a local port, a signed-in
 * operator) on bench:statements' dataset (at least 5,000 flats, BENCH_FLATS) in a throwaway
 * PostgreSQL server, with every flat an occupant, 5 % a move on the 15th of last month, and the
 * audit log grown to BENCH_AUDIT_ROWS entries (default 1,000,000):
 *
 * - the address search of Master data (`GET /masterData/locations/search`, docs/master-data.md):
 *   a street, a street and building, a flat's whole address, a word nothing has;
 * - an access request (`GET /occupancies/:id/personal-data`, docs/personal-data.md) of an occupant
 *   who moved out and of one who stayed;
 * - the request's audit-log query alone, with its index (migration 185) and without (the planner's
 *   index and bitmap scans switched off for the query), alternating: both must return the same
 *   rows, else FAILED and exit 1.
 *
 *   npm run bench:search-access -w bench
 *   (BENCH_DEVICES, BENCH_FLATS, BENCH_READINGS, BENCH_AUDIT_ROWS, BENCH_RUNS)
 */
import { loadavg } from 'node:os';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { refreshMonthEnds } from '@rodmenys/server/services/data-quality/refresh-month-ends.js';
import { monthPartitions, withoutKeys } from './lib/bulk-load.js';
import { createDataset, type Dataset } from './lib/dataset.js';
import { machineInfo } from './lib/machine.js';
import { addOccupanciesAndMoves } from './lib/moves.js';
import { startPostgres } from './lib/postgres.js';
import { type BenchServer, startServer } from './lib/server.js';
import { envInt, fmtMs, measure, summarise, type Timing, timed } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const DEVICES = envInt('BENCH_DEVICES', 13_000);
const FLATS = envInt('BENCH_FLATS', 5_000);
// The look-ups read no readings; the month ends (an access request's statements) need a year of them.
const READINGS = envInt('BENCH_READINGS', 2_000_000);
const AUDIT_ROWS = envInt('BENCH_AUDIT_ROWS', 1_000_000);
const RUNS = envInt('BENCH_RUNS', 20);
const POSTGRES_SETTINGS = { shared_buffers: "'1GB'", work_mem: "'64MB'", effective_cache_size: "'4GB'" };

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load1 = () => loadavg()[0]!.toFixed(1);

type Row = [step: string, median: string, p95: string, aim: string, load: string, detail: string];

async function loadData(db: Db, dataset: Dataset) {
  for (const { sql, rows } of dataset.masterData()) await db.copyIn(sql, rows);
  await monthPartitions(db, dataset.start, dataset.end);
  await withoutKeys(db, 'reading', () => db.copyIn(dataset.readingsSql, dataset.readings()));
  await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
}

/**
 * Every flat an open occupancy of its client, and every 20th a move on the 15th of `month` (a new
 * client moves in), with the moving-day values; as bench:statements does. Answers a flat that moved.
 */
async function addOccupants(db: Db, month: string): Promise<number> {
  return (await addOccupanciesAndMoves(db, month, 20))[0]!;
}

/**
 * The audit log grown to AUDIT_ROWS entries over two years, as a provider's would be after a few
 * registers and a year of edits: mostly locations and devices, some occupancies, clients and users,
 * each about a record of the dataset. Written by one set-based INSERT.
 */
async function growAuditLog(db: Db) {
  await db.query(
    `WITH ids AS (SELECT (SELECT max(id) FROM location) AS loc, (SELECT max(id) FROM device) AS dev,
                         (SELECT max(id) FROM occupancy) AS occ, (SELECT max(id) FROM client) AS cli)
     INSERT INTO audit_log (at, actor_id, actor_username, kind, entity, entity_id, before, after)
     SELECT now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second', 1, 'bench',
            e.entity || '.update', e.entity,
            (1 + (g::bigint * 7919) % CASE e.entity WHEN 'location' THEN ids.loc WHEN 'device' THEN ids.dev
                                            WHEN 'occupancy' THEN ids.occ WHEN 'client' THEN ids.cli ELSE 50 END)::text,
            NULL, jsonb_build_object('Name', 'entry ' || g)
       FROM generate_series(1, $1::int) g, ids,
            LATERAL (SELECT CASE WHEN g % 20 < 9 THEN 'location' WHEN g % 20 < 16 THEN 'device'
                                 WHEN g % 20 < 18 THEN 'occupancy' WHEN g % 20 < 19 THEN 'client' ELSE 'user' END AS entity) e`,
    [AUDIT_ROWS],
  );
}

/** The access request's audit query (services/personal-data/access-request.ts), its rows' ids. */
const AUDIT_SQL = `SELECT a.id FROM audit_log a
  WHERE (a.entity = 'occupancy' AND a.entity_id = ANY ($1::text[])) OR (a.entity = 'client' AND a.entity_id = $2)
  ORDER BY a.at, a.id`;

/**
 * The audit query with its index and without (index and bitmap scans off for that transaction),
 * alternating run by run; the rows must be the same. Answers both timings, the plans' first scan
 * node and whether they agree.
 */
async function auditQuery(db: Db, occupancyIds: string[], clientId: string) {
  const run = (indexed: boolean) =>
    db.transaction(async (tx) => {
      if (!indexed) await tx.exec('SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off');
      const plan = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${AUDIT_SQL}`, [occupancyIds, clientId]);
      const start = performance.now();
      const { rows } = await tx.query<{ id: string }>(AUDIT_SQL, [occupancyIds, clientId]);
      const ms = performance.now() - start;
      const lines = plan.rows.map((r) => r['QUERY PLAN']);
      const scan = lines.find((l) => /Index Scan/.test(l)) ?? lines.find((l) => /Scan/.test(l)) ?? '';
      return {
        ms,
        ids: rows.map((r) => String(r.id)).join(','),
        rows: rows.length,
        scan: scan.replace(/^[\s>-]+/, '').split('  (')[0]!,
      };
    });
  // One warm-up each (the table's pages cached for both).
  let last = { with: await run(true), without: await run(false) };
  const times = { with: [] as number[], without: [] as number[] };
  let agree = last.with.ids === last.without.ids;
  for (let i = 0; i < Math.max(5, Math.floor(RUNS / 2)); i++) {
    last = { with: await run(true), without: await run(false) };
    times.with.push(last.with.ms);
    times.without.push(last.without.ms);
    if (last.with.ids !== last.without.ids) agree = false;
  }
  return { times, agree, last };
}

async function get(server: BenchServer, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.api}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
  return { status: res.status, text: await res.text() };
}

/** Times GET `path` (after two warm-ups); it must answer 200. */
async function timeGet(server: BenchServer, path: string, runs = RUNS): Promise<{ t: Timing; text: string }> {
  let text = '';
  const t = await measure(
    async () => {
      const res = await get(server, path);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 200)}`);
      text = res.text;
    },
    { warmup: 2, runs },
  );
  return { t, text };
}

async function searches(db: Db, server: BenchServer, add: (r: Row) => void) {
  // Words from a flat of the dataset, so that the searches find what a person would look for.
  const { rows } = await db.query<{ street: string; building: string; flat: string; city: string }>(
    `SELECT street, building, flat, city FROM location WHERE level = 7 ORDER BY id LIMIT 1
       OFFSET (SELECT count(*) / 2 FROM location WHERE level = 7)`,
  );
  const f = rows[0]!;
  const word = (s: string) => s.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 3) ?? s;
  const cases: [string, string][] = [
    ['a street (50 of many)', word(f.street)],
    ['a street and building', `${word(f.street)} ${f.building}`],
    ["a flat's whole address", `${word(f.city)} ${word(f.street)} ${f.building}-${f.flat}`],
    ['a word nothing has', 'zzqxw'],
  ];
  const { rows: n } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM location WHERE level >= 6');
  for (const [label, text] of cases) {
    const { t, text: body } = await timeGet(server, `/masterData/locations/search?text=${encodeURIComponent(text)}`);
    const found = (JSON.parse(body) as unknown[]).length;
    add([
      `address search: ${label} ("${text}")`,
      fmtMs(t.medianMs),
      fmtMs(t.p95Ms),
      '≤ 300',
      load1(),
      `${found} found of ${n[0]!.n.toLocaleString('en-US')} buildings and flats`,
    ]);
    log(`search ${label}: ${fmtMs(t.medianMs)} ms`);
  }
}

async function accessRequests(db: Db, server: BenchServer, movedFlat: number, add: (r: Row) => void) {
  const { rows } = await db.query<{ leaver: number; stayer: number }>(
    `SELECT (SELECT id FROM occupancy WHERE location_id = $1 AND move_out IS NOT NULL) AS leaver,
            (SELECT id FROM occupancy WHERE move_out IS NULL AND move_in IS NULL ORDER BY id LIMIT 1
              OFFSET (SELECT count(*) / 3 FROM occupancy)) AS stayer`,
    [movedFlat],
  );
  const runs = Math.max(5, Math.floor(RUNS / 2));
  for (const [label, id] of [
    ['an occupant who moved out last month', rows[0]!.leaver],
    ['an occupant who stayed', rows[0]!.stayer],
  ] as const) {
    const { t, text } = await timeGet(server, `/occupancies/${id}/personal-data`, runs);
    const data = JSON.parse(text) as { Statements: unknown[]; AuditEntries: unknown[] };
    add([
      `access request: ${label}`,
      fmtMs(t.medianMs),
      fmtMs(t.p95Ms),
      '≤ 5,000',
      load1(),
      `${data.Statements.length} months of statements, ${data.AuditEntries.length} audit entries, ${(text.length / 1024).toFixed(0)} KiB`,
    ]);
    log(`access request ${label}: ${fmtMs(t.medianMs)} ms`);
  }
  return rows[0]!.leaver;
}

async function main() {
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const coverFrom = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth() - 2, 1));
  const dataset = createDataset({ devices: DEVICES, flats: FLATS, readings: READINGS, end: now, coverFrom });
  const rows: Row[] = [];
  const add = (r: Row) => rows.push(r);
  let failed = false;
  let version = '';
  let auditNote = '';
  const cluster = await startPostgres({ settings: POSTGRES_SETTINGS });
  try {
    const db = openPostgres(cluster.url, TIME_ZONE);
    try {
      await migrate(db);
      version = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
      const loaded = await timed(async () => {
        await loadData(db, dataset);
        await refreshMonthEnds(db, now, { ensure: true });
      });
      log(`loaded ${dataset.deviceCount} devices, month ends in ${fmtMs(loaded.ms)} ms`);
      const movedFlat = await addOccupants(db, month);
      const grown = await timed(() => growAuditLog(db));
      await db.exec('ANALYZE');
      const { rows: size } = await db.query<{ n: number; flats: number }>(
        `SELECT (SELECT count(*)::int FROM audit_log) AS n, (SELECT count(*)::int FROM location WHERE level = 7) AS flats`,
      );
      auditNote = `${size[0]!.flats.toLocaleString('en-US')} flats; audit log ${size[0]!.n.toLocaleString('en-US')} entries (written in ${fmtMs(grown.ms)} ms)`;
      log(auditNote);
      const server = await startServer(db, TIME_ZONE);
      try {
        await searches(db, server, add);
        const leaver = await accessRequests(db, server, movedFlat, add);
        // The audit query alone, for the leaver's occupancy and account.
        const { rows: who } = await db.query<{ client_id: number }>('SELECT client_id FROM occupancy WHERE id = $1', [
          leaver,
        ]);
        const q = await auditQuery(db, [String(leaver)], String(who[0]!.client_id));
        const agreeNote = q.agree ? `same ${q.last.with.rows} rows both ways` : 'FAILED: the rows differ';
        if (!q.agree) failed = true;
        const auditRow = (label: string, times: number[], aim: string, scan: string) => {
          const { medianMs, p95Ms } = summarise(times);
          add([label, fmtMs(medianMs), fmtMs(p95Ms), aim, load1(), `${scan}; ${agreeNote}`]);
        };
        auditRow(
          'audit query of an access request, before: no index (scans off)',
          q.times.without,
          '-',
          q.last.without.scan,
        );
        auditRow('the same, after: index audit_log_entity (migration 185)', q.times.with, '≤ 50', q.last.with.scan);
      } finally {
        await server.close();
      }
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
  console.log(
    `\nAddress search and access requests (npm run bench:search-access -w bench), month ${month}, ${new Date().toISOString()}`,
  );
  for (const line of machineInfo(version)) console.log(`- ${line}`);
  console.log(
    `- ${dataset.deviceCount.toLocaleString('en-US')} devices, ${READINGS.toLocaleString('en-US')} readings, ${auditNote}`,
  );
  console.log(
    `- ms over HTTP (uncompressed), ${RUNS} runs after two warm-ups (access requests and the audit query: ${Math.max(5, Math.floor(RUNS / 2))}, alternating before/after); load average (1 min) after each step; the machine is shared\n`,
  );
  console.log(formatTable(['Step', 'median ms', 'p95 ms', 'Aim ms', 'Load', 'Detail'], rows));
  if (failed) {
    console.log('\nFAILED: the audit query returned other rows without its index');
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
