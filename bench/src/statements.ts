/**
 * Monthly statement figures (docs/statements.md), printed, not asserted, on the benchmark
 * dataset grown to at least 5,000 flats (BENCH_FLATS), 5 % of them
 * (BENCH_MOVES_PERCENT) with a move on the 15th of the month (docs/occupancies.md):
 * the figures of one building and of every flat over HTTP (the real app on a local
 * port, a signed-in operator), each occupant's part of a flat with a move included,
 * beside the flat-only figures (the endpoint as it was before the per-occupancy split,
 * alternating in the same run); the flats without a move must have the same figures in
 * both, and the occupants' parts must add up to their flat's figures, else FAILED and
 * exit 1. One building also by the path before docs/statements.md "Figures of many
 * flats" (lib/statements-figures-before.ts). Then a flat's statement, the heat methods
 * (lib/heat-methods.ts, docs/heat-method.md), and publishing the month for every device;
 * on a PostgreSQL server, and one building on PGlite. The PDF's: bench:statements-pdf.
 * Against the path at commit 56f68cb (docs/benchmarks.md, "Statements: every flat and publishing"): the
 * figures of one building and of every flat (after the heat methods) and publishing are also run by that
 * path (lib/statements-before/, a frozen copy), compared flat by flat and part by part and row by row (FAILED and
 * exit 1 on any difference), with the aims printed beside the figures (a run above one says so).
 *   npm run bench:statements -w bench (BENCH_DEVICES, BENCH_FLATS, BENCH_READINGS, BENCH_RUNS, BENCH_MOVES_PERCENT);
 *   smaller: BENCH_FLATS=300 BENCH_DEVICES=300 BENCH_READINGS=300000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { getStatementFigures } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { defineRoute } from '@rodmenys/server/routes/define.js';
import { refreshMonthEnds } from '@rodmenys/server/services/data-quality/refresh-month-ends.js';
import { parseIdList } from '@rodmenys/server/services/id-list.js';
import { figuresOccupancies as occupanciesBefore44 } from '@rodmenys/server/services/statements/occupancy-figures.js';
import { statementFiguresJson } from '@rodmenys/server/services/statements/rows-json.js';
import { statementRows } from '@rodmenys/server/services/statements/snapshots.js';
import { monthPartitions, withoutKeys } from './lib/bulk-load.js';
import { cpuClock } from './lib/cpu.js';
import { createDataset, type Dataset } from './lib/dataset.js';
import { heatMethodRows } from './lib/heat-methods.js';
import { machineInfo } from './lib/machine.js';
import { addOccupanciesAndMoves } from './lib/moves.js';
import { startPostgres } from './lib/postgres.js';
import { startServer } from './lib/server.js';
import { statementFiguresJson as jsonBefore44 } from './lib/statements-before/rows-json.js';
import { statementRows as rowsBefore44 } from './lib/statements-before/snapshots.js';
import { againstAim, type Figures, figuresDifferences } from './lib/statements-compare.js';
import { statementFiguresBefore } from './lib/statements-figures-before.js';
import { publishingRows } from './lib/statements-publish.js';
import { envInt, fmtMs, measure, median, summarise, timed } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const DEVICES = envInt('BENCH_DEVICES', 13_000);
const FLATS = envInt('BENCH_FLATS', 5_000);
const READINGS = envInt('BENCH_READINGS', 20_000_000);
const RUNS = envInt('BENCH_RUNS', 15);
const MOVES_PERCENT = envInt('BENCH_MOVES_PERCENT', 5);
const POSTGRES_SETTINGS = { shared_buffers: "'2GB'", work_mem: "'64MB'", effective_cache_size: "'8GB'" };

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load1 = () => loadavg()[0]!.toFixed(1);
type Row = [database: string, step: string, median: string, p95: string, aim: string, load: string, detail: string];

async function loadData(db: Db, dataset: Dataset, devices?: ReadonlySet<number>) {
  for (const { sql, rows } of dataset.masterData()) await db.copyIn(sql, rows);
  await monthPartitions(db, dataset.start, dataset.end);
  await withoutKeys(db, 'reading', () => db.copyIn(dataset.readingsSql, dataset.readings({ devices })));
  await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  await db.exec('ANALYZE');
}

/** The building with the most devices in service, and how many flats and devices it has. */
async function largestBuilding(db: Db) {
  const { rows } = await db.query<{ id: number; flats: number; devices: number }>(
    `SELECT b.id, count(DISTINCT f.id)::int AS flats, count(d.id)::int AS devices
       FROM location b JOIN location f ON f.parent_id = b.id AND f.level = 7
       LEFT JOIN device d ON d.location_id = f.id AND d.removed_at IS NULL
      WHERE b.level = 6 GROUP BY b.id ORDER BY 3 DESC, 2 DESC, 1 LIMIT 1`,
  );
  return rows[0]!;
}

/**
 * Every flat gets one open occupancy of its client (as migration 150 gives them), and every
 * (100 / MOVES_PERCENT)th flat a move on the 15th of `month`: the occupancy ends there, a new one
 * (a new client) starts, the flat's client becomes the new one, and the moving-day values are
 * computed as the scheduled work does. Answers the flats with a move.
 */
async function addMoves(db: Db, month: string): Promise<Set<number>> {
  const moved = await addOccupanciesAndMoves(
    db,
    month,
    MOVES_PERCENT > 0 ? Math.max(1, Math.round(100 / MOVES_PERCENT)) : 0,
  );
  await db.exec('ANALYZE');
  return new Set(moved);
}

/**
 * The answer against the flat-only baseline: every flat without a move must have the same row in
 * both, and each flat's occupants' parts must add up to its figure of the month (thousandths);
 * answers the counts and the failures.
 */
function check(after: Figures, baseline: Figures, moved: ReadonlySet<number>) {
  const base = new Map(baseline.Rows.map((r) => [r.FlatId, JSON.stringify(r)]));
  const failures: string[] = [];
  let still = 0;
  for (const r of after.Rows) {
    if (moved.has(r.FlatId)) continue;
    still++;
    if (base.get(r.FlatId) !== JSON.stringify(r)) failures.push(`flat ${r.FlatId}: not the baseline's figures`);
  }
  if (base.size !== after.Rows.length) failures.push(`${after.Rows.length} rows, the baseline ${base.size}`);
  const parts = new Map<number, Figures['Occupancies']>();
  for (const o of after.Occupancies) parts.set(o.FlatId, [...(parts.get(o.FlatId) ?? []), o]);
  let split = 0;
  for (const r of after.Rows) {
    const own = parts.get(r.FlatId) ?? [];
    if (moved.has(r.FlatId) !== own.length > 1) {
      failures.push(`flat ${r.FlatId}: ${own.length} occupants' parts, ${moved.has(r.FlatId) ? 'a' : 'no'} move`);
      continue;
    }
    if (!own.length) continue;
    split++;
    for (const k of r.Kinds) {
      if (k.Current.Value === null) continue;
      const sum = own.reduce(
        (s, o) => s + Math.round((o.Kinds.find((x) => x.Kind === k.Kind)?.Current.Value ?? 0) * 1000),
        0,
      );
      if (sum !== Math.round(k.Current.Value * 1000))
        failures.push(`flat ${r.FlatId} ${k.Kind}: the parts add up to ${sum / 1000}, the flat ${k.Current.Value}`);
    }
  }
  return { still, split, failures };
}

async function run(
  database: string,
  db: Db,
  now: Date,
  month: string,
  everything: boolean,
  failures: string[],
): Promise<Row[]> {
  const out: Row[] = [];
  const add = (step: string, t: { medianMs: number; p95Ms: number } | number, aim: string, detail: string) => {
    const [median, p95] = typeof t === 'number' ? [fmtMs(t), '-'] : [fmtMs(t.medianMs), fmtMs(t.p95Ms)];
    out.push([database, step, median, p95, aim, load1(), detail]);
    log(`${database} ${step}: ${median} ms (${detail})`);
  };
  // Month ends of the 13 months a statement shows, and more: what the scheduled work keeps.
  const ends = await timed(() => refreshMonthEnds(db, now, { ensure: true }));
  add('month ends kept by the scheduled work (catch-up, 24 months)', ends.ms, '-', `${ends.result.written} values`);
  const moves = await timed(() => addMoves(db, month));
  const moved = moves.result;
  add(
    `${MOVES_PERCENT} % of the flats move on the 15th (occupancies, moving-day values)`,
    moves.ms,
    '-',
    `${moved.size} flats with a move`,
  );
  // The baselines, beside the real path: the flat-only figures (the endpoint before the per-occupancy split),
  // and the path before "Figures of many flats" (the same contract endpoint, schema serialiser).
  const server = await startServer(db, TIME_ZONE, {
    routes: (app) => {
      defineRoute(app, { ...getStatementFigures, path: '/api/statements/figures-flat-only' }, async ({ query, db }) =>
        statementFiguresJson(
          query.month,
          await statementRows(db, query.month, { scope: null, parents: parseIdList(query.locationParentId) }),
          [],
        ),
      );
      defineRoute(app, { ...getStatementFigures, path: '/api/statements/figures-44' }, async ({ query, db }) => {
        const rows = await rowsBefore44(db, query.month, { scope: null, parents: parseIdList(query.locationParentId) });
        return jsonBefore44(query.month, rows, await occupanciesBefore44(db, query.month, rows));
      });
      defineRoute(app, { ...getStatementFigures, path: '/api/statements/figures-before' }, async ({ query, db }) => ({
        Month: query.month,
        Rows: await statementFiguresBefore(db, query.month, parseIdList(query.locationParentId)),
        Occupancies: [],
      }));
    },
  });
  try {
    const get = async (url: string) => {
      const res = await fetch(`${server.api}${url}`, {
        headers: { authorization: `Bearer ${server.token}`, 'accept-encoding': 'identity' },
      });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.text();
    };
    /**
     * The answer of `url` and of a baseline (`/statements/<baseline>?…`), alternating (both see the same
     * load): wall time, and the median CPU time of this process (server and client) and PostgreSQL's
     * backends; the baseline must agree on every flat without a move (check), else FAILED.
     */
    const clock = await cpuClock(db);
    const both = async (url: string, baseline: string, runs: number) => {
      const before = url.replace('/statements/figures?', `/statements/${baseline}?`);
      const text = await get(url);
      const other = JSON.parse(await get(before)) as Figures;
      const checked = check(JSON.parse(text) as Figures, other, moved);
      // The path before (commit 56f68cb) must answer exactly the same, flat by flat and part by part.
      if (baseline === 'figures-44') checked.failures = figuresDifferences(JSON.parse(text) as Figures, other);
      failures.push(...checked.failures.map((f) => `${database}, ${baseline}: ${f}`));
      const wall: [number[], number[]] = [[], []];
      const cpu: [number[], number[]] = [[], []];
      for (let i = 0; i < runs; i++)
        for (const [k, u] of [url, before].entries()) {
          const c = await clock();
          wall[k]!.push((await timed(() => get(u))).ms);
          cpu[k]!.push((await clock()) - c);
        }
      const parsed = JSON.parse(text) as Figures;
      const agree = checked.failures.length
        ? `FAILED: ${checked.failures.length} disagreements`
        : baseline === 'figures-44'
          ? `the same answer on every flat, kind, part, marker and occupant's part`
          : `agrees on all ${checked.still.toLocaleString('en-US')} flats without a move`;
      return {
        text,
        rows: parsed.Rows.length,
        parts: parsed.Occupancies.length,
        split: checked.split,
        agree,
        after: summarise(wall[0]),
        before: summarise(wall[1]),
        cpu: cpu.map(median),
      };
    };
    const cpuNote = (ms: number) => `CPU ${fmtMs(ms)} ms`;
    const rowsNote = (b: { rows: number; parts: number; split: number }) =>
      `${b.rows.toLocaleString('en-US')} flats, ${b.split} with a move (${b.parts} occupants' rows)`;
    const building = await largestBuilding(db);
    const one = `/statements/figures?month=${month}&locationParentId=${building.id}`;
    await measure(() => get(one), { warmup: 3, runs: 1 });
    const b1 = await both(one, 'figures-flat-only', RUNS);
    add(
      'figures of one building over HTTP, per occupancy',
      b1.after,
      '50 ms',
      `${rowsNote(b1)}, ${building.devices} devices, ${b1.text.length.toLocaleString('en-US')} B, ${cpuNote(b1.cpu[0]!)}; ${againstAim(b1.after.medianMs, 50)}`,
    );
    add('the same, flat-only (before the per-occupancy split)', b1.before, '-', `${b1.agree}, ${cpuNote(b1.cpu[1]!)}`);
    const b44 = await both(one, 'figures-44', RUNS);
    add('the same, by the path before (56f68cb)', b44.before, '-', `${b44.agree}, ${cpuNote(b44.cpu[1]!)}`);
    const b0 = await both(one, 'figures-before', RUNS);
    add('the same, by the path before "Figures of many flats"', b0.before, '-', `${b0.agree}, ${cpuNote(b0.cpu[1]!)}`);
    const { rows: flat } = await db.query<{ id: number }>(
      'SELECT id FROM location WHERE parent_id = $1 AND level = 7 ORDER BY id LIMIT 1',
      [building.id],
    );
    const tf = await measure(() => get(`/statements/flats/${flat[0]!.id}?month=${month}`), { warmup: 3, runs: RUNS });
    add("one flat's statement over HTTP (13 months, building averages)", tf, '-', `flat ${flat[0]!.id}`);
    const every = everything ? `/statements/figures?month=${month}` : one;
    // Half the buildings under a heat method (the rest "none"), then the aims' figures of every flat.
    await heatMethodRows(db, month, get, every, Math.min(RUNS, 5), add, failures);
    if (everything) {
      const runs = Math.max(5, Math.floor(RUNS / 2));
      const all = await both(every, 'figures-44', runs);
      const size = `${rowsNote(all)}, ${(all.text.length / 1e6).toFixed(1)} MB`;
      const met = `${againstAim(all.after.medianMs, 1000)} (CPU: ${againstAim(all.cpu[0]!, 800)})`;
      add(
        'figures of every flat over HTTP, half the buildings by a heat method',
        all.after,
        '1 s, CPU 0.8 s',
        `${size}, ${cpuNote(all.cpu[0]!)}; ${met}`,
      );
      add('the same, by the path before (56f68cb)', all.before, '-', `${all.agree}, ${cpuNote(all.cpu[1]!)}`);
      const flatOnly = await both(every, 'figures-flat-only', 1);
      add('the same, flat-only (before the per-occupancy split)', flatOnly.before, '-', flatOnly.agree);
    }
    const publish = async (body: { month: string }) => {
      const res = await fetch(`${server.api}/statements/publications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`publish: ${res.status} ${await res.text()}`);
      return (await res.json()) as { Buildings: number; Flats: number };
    };
    await publishingRows(database, db, month, publish, add, failures);
    const published = await measure(() => get(one), { warmup: 2, runs: RUNS });
    add(
      'figures of one building once published (snapshot)',
      published,
      '50 ms',
      `${b1.rows} flats; ${againstAim(published.medianMs, 50)}`,
    );
  } finally {
    await server.close();
  }
  return out;
}

async function main() {
  const now = new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const month = monthStart.toISOString().slice(0, 7);
  // A statement compares with the same month last year and shows 13 months: readings reach back 14.
  const coverFrom = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth() - 2, 1));
  const dataset = createDataset({ devices: DEVICES, flats: FLATS, readings: READINGS, end: now, coverFrom });
  log(
    `dataset: ${dataset.deviceCount} devices, readings every ${dataset.intervalHours} h from ${dataset.start.toISOString()}`,
  );
  const rows: Row[] = [];
  const failures: string[] = [];
  const cluster = await startPostgres({ settings: POSTGRES_SETTINGS });
  let version = '';
  try {
    const db = openPostgres(cluster.url, TIME_ZONE);
    try {
      await migrate(db);
      version = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
      log(`PostgreSQL: loading ${READINGS.toLocaleString('en-US')} readings`);
      const loaded = await timed(() => loadData(db, dataset));
      log(`loaded in ${fmtMs(loaded.ms)} ms`);
      rows.push(...(await run('PostgreSQL', db, now, month, true, failures)));
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
  // PGlite: the dataset's first building with all its readings.
  const first = new Set([dataset.buildings[0]!.locationId]);
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-statements-'));
  try {
    const db = await openPglite(dir, TIME_ZONE);
    try {
      await migrate(db);
      await loadData(db, dataset, dataset.devicesIn(first));
      await db.query('UPDATE device SET removed_at = installed_at WHERE id <> ALL($1::int[])', [
        [...dataset.devicesIn(first)],
      ]);
      rows.push(...(await run('PGlite (one building)', db, now, month, false, failures)));
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nMonthly statements (npm run bench:statements -w bench), ${new Date().toISOString()}`);
  for (const line of machineInfo(version)) console.log(`- ${line}`);
  console.log(
    `- ${dataset.deviceCount.toLocaleString('en-US')} devices, ${READINGS.toLocaleString('en-US')} readings; month ${month}; load average (1 min) at each step; the machine is shared\n`,
  );
  console.log(formatTable(['Database', 'Step', 'median ms', 'p95 ms', 'Aim', 'Load', 'Detail'], rows));
  if (failures.length) {
    console.log(`\nFAILED: the baselines disagree or the occupants' parts do not add up (${failures.length}):`);
    for (const f of failures.slice(0, 20)) console.log(`- ${f}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
