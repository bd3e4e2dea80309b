/**
 * The figures of every flat (GetStatementFigures without a selection) by the service path as the route calls
 * it (rows, occupants' parts, JSON text), against the path at 56f68cb (lib/statements-before/), alternating in
 * one process: CPU per answer of this process and PostgreSQL's backends (/proc), Node's share, wall time, the
 * machine's load; every answer's text must be the same on both sides byte for byte, else FAILED and exit 1.
 * bench:statements' dataset (createDataset, 5 % of the flats with a move, every other building under a heat
 * method, the rest a version "none"), with fewer readings (the figures read month ends, not readings), filled
 * once: into BENCH_PG_URL's database when given (kept for the next run: a table `bench_every_flat` marks it
 * filled), else into a throwaway cluster. No HTTP: bench:statements measures that.
 *   npm run bench:every-flat -w bench (BENCH_FLATS 5000, BENCH_READINGS 1000000, BENCH_RUNS 4, BENCH_PG_URL,
 *   BENCH_ONLY=now: only the path now, e.g. under `node --cpu-prof`). Then each of the path's main reads alone on
 * one connection of its own: the backend's CPU (/proc) and this process's, median of BENCH_RUNS.
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { statementFigures } from '@rodmenys/server/services/statements/figures-answer.js';
import { statementMonths } from '@rodmenys/server/services/statements/months.js';
import {
  loadSplitInputs,
  figuresOccupancies as occupanciesBefore,
} from '@rodmenys/server/services/statements/occupancy-figures.js';
import { loadOverdue } from '@rodmenys/server/services/statements/overdue.js';
import { loadParts } from '@rodmenys/server/services/statements/parts.js';
import { statementFiguresJson } from '@rodmenys/server/services/statements/rows-json.js';
import { loadBuildingFlats } from '@rodmenys/server/services/statements/selection.js';
import { cpuClock, procCpuMs } from './lib/cpu.js';
import { fillFlatsDataset } from './lib/flats-dataset.js';
import { machineInfo } from './lib/machine.js';
import { startPostgres } from './lib/postgres.js';
import { statementFiguresJson as jsonBefore } from './lib/statements-before/rows-json.js';
import { statementRows as rowsBefore } from './lib/statements-before/snapshots.js';
import { envInt, fmtMs, median } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const FLATS = envInt('BENCH_FLATS', 5_000);
const READINGS = envInt('BENCH_READINGS', 1_000_000);
const RUNS = envInt('BENCH_RUNS', 4);
const ONLY_NOW = process.env.BENCH_ONLY === 'now';
const MOVES_EVERY = 20;

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** Fills the database once (bench:statements' dataset, moves, areas, heat methods); answers the month. */
async function fill(db: Db): Promise<string> {
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  await migrate(db);
  await fillFlatsDataset(
    db,
    { devices: 13_000, flats: FLATS, readings: READINGS, movesEvery: MOVES_EVERY },
    month,
    now,
    log,
  );
  await db.query('CREATE TABLE bench_every_flat AS SELECT $1::text AS month', [month]);
  return month;
}

/** Each of the figures' main reads of every flat alone on a one-connection pool: its backend's CPU and this process's. */
async function readsAlone(url: string, month: string): Promise<string[][]> {
  const one = openPostgres(url, TIME_ZONE, 1);
  try {
    const pid = (await one.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const sel = { scope: null, parents: null };
    const flatIds = (await loadBuildingFlats(one, sel, month)).map((f) => f.flat_id);
    const months = statementMonths(month);
    const computed = [months[0]!, months[11]!, month];
    const reads: [string, () => Promise<number>][] = [
      ['the flats of the selection (loadBuildingFlats)', async () => (await loadBuildingFlats(one, sel, month)).length],
      [
        "the parts, 3 months (loadParts: the parts' statement)",
        async () => {
          await loadParts(one, flatIds, computed, months[0]!, month);
          return Number.NaN;
        },
      ],
      [
        'the overdue devices (loadOverdue)',
        async () => {
          await loadOverdue(one, flatIds, month);
          return Number.NaN;
        },
      ],
      [
        "the occupants' segments and devices (loadSplitInputs)",
        async () => (await loadSplitInputs(one, month, flatIds, true)).segments.size,
      ],
    ];
    const out: string[][] = [];
    for (const [name, read] of reads) {
      const backend: number[] = [];
      const node: number[] = [];
      let rows = 0;
      for (let i = 0; i <= RUNS; i++) {
        const b = procCpuMs(pid);
        const own = process.cpuUsage();
        rows = await read();
        const used = process.cpuUsage(own);
        // The first run is not counted (plans, caches).
        if (i === 0) continue;
        backend.push(procCpuMs(pid) - b);
        node.push((used.user + used.system) / 1000);
      }
      out.push([name, Number.isNaN(rows) ? '-' : String(rows), fmtMs(median(backend)), fmtMs(median(node))]);
    }
    return out;
  } finally {
    await one.close();
  }
}

async function main() {
  const url = process.env.BENCH_PG_URL;
  const cluster = url
    ? undefined
    : await startPostgres({ settings: { shared_buffers: "'1GB'", work_mem: "'64MB'", effective_cache_size: "'8GB'" } });
  const db = openPostgres(url ?? cluster!.url, TIME_ZONE);
  try {
    const filled = await db.query<{ t: string | null }>(`SELECT to_regclass('bench_every_flat')::text AS t`);
    const month = filled.rows[0]!.t
      ? (await db.query<{ month: string }>('SELECT month FROM bench_every_flat')).rows[0]!.month
      : await fill(db);
    const counts = (
      await db.query<{ flats: number; buildings: number; devices: number }>(
        `SELECT count(*) FILTER (WHERE level = ${LOCATION_LEVEL.flat})::int AS flats,
                count(*) FILTER (WHERE level = ${LOCATION_LEVEL.building})::int AS buildings,
                (SELECT count(*)::int FROM device) AS devices FROM location`,
      )
    ).rows[0]!;
    const version = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
    const sel = { scope: null, parents: null };
    const paths = {
      now: async () => {
        const { rows, occupancies } = await statementFigures(db, month, sel);
        return statementFiguresJson(month, rows, occupancies).json.toString();
      },
      before: async () => {
        const rows = await rowsBefore(db, month, sel);
        return jsonBefore(month, rows, await occupanciesBefore(db, month, rows)).json.toString();
      },
    };
    const clock = await cpuClock(db);
    const names = ONLY_NOW ? (['now'] as const) : (['before', 'now'] as const);
    const out = new Map<string, { cpu: number[]; node: number[]; wall: number[]; hashes: Set<string>; size: number }>();
    for (const n of names) out.set(n, { cpu: [], node: [], wall: [], hashes: new Set(), size: 0 });
    const loads: string[] = [load()];
    // A first answer of each, not counted (the modules' first compilation).
    for (const n of names) out.get(n)!.hashes.add(hash(await paths[n]()));
    for (let i = 0; i < RUNS; i++)
      for (const n of i % 2 ? [...names].reverse() : names) {
        const o = out.get(n)!;
        const c = await clock();
        const own = process.cpuUsage();
        const t = performance.now();
        const text = await paths[n]();
        o.wall.push(performance.now() - t);
        const used = process.cpuUsage(own);
        o.cpu.push((await clock()) - c);
        o.node.push((used.user + used.system) / 1000);
        o.hashes.add(hash(text));
        o.size = text.length;
        log(`${n}: CPU ${fmtMs(o.cpu.at(-1)!)} ms, Node ${fmtMs(o.node.at(-1)!)} ms, load ${load()}`);
      }
    loads.push(load());
    const failures: string[] = [];
    const all = new Set([...out.values()].flatMap((o) => [...o.hashes]));
    if (all.size !== 1) failures.push(`the answers differ: ${[...all].join(', ')}`);
    console.log(
      `\nFigures of every flat, service path (npm run bench:every-flat -w bench), ${new Date().toISOString()}`,
    );
    for (const line of machineInfo(version)) console.log(`- ${line}`);
    console.log(
      `- ${counts.buildings} buildings, ${counts.flats.toLocaleString('en-US')} flats, ${counts.devices.toLocaleString('en-US')} devices; month ${month}; ` +
        `${RUNS} runs each, alternating; load average (1, 5, 15 min) ${loads.join(' → ')}\n`,
    );
    const ms = (xs: number[]) => `${fmtMs(median(xs))} (${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))})`;
    console.log(
      formatTable(
        ['Path', 'CPU ms, median (range)', 'of which Node ms', 'wall ms', 'JSON MB', 'answer'],
        [...out].map(([n, o]) => [
          n === 'now' ? 'now' : 'before (56f68cb)',
          ms(o.cpu),
          ms(o.node),
          ms(o.wall),
          (o.size / 1e6).toFixed(1),
          [...o.hashes].join(', '),
        ]),
      ),
    );
    console.log(
      `\nThe path's main reads, each alone on a connection of its own (${RUNS} runs, medians), load ${load()}:\n`,
    );
    console.log(
      formatTable(['Read', 'rows', 'backend CPU ms', 'Node CPU ms'], await readsAlone(url ?? cluster!.url, month)),
    );
    if (failures.length) {
      console.log(`\nFAILED: ${failures.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await db.close();
    await cluster?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
