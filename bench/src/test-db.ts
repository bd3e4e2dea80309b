/**
 * `npm run bench:test-db -w bench`: what one server test file pays for its database
 * on embedded PGlite. Each test file runs in a process of its own, so each sample is
 * a new process that opens an in-memory PGlite and makes it ready to use:
 *
 * - fresh:    an empty database, then every migration (what the suite did before);
 * - snapshot: the data folder image of a migrated database, made once per test run
 *             (as the suite's global setup does), loaded with `loadDataDir`.
 *
 * Prints the median and p95 of each, the one-off cost of making the image, and the
 * machine's load. Figures go to docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { machineInfo } from './lib/machine.js';
import { summarise } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const RUNS = Number(process.env.RUNS ?? 10);

/** In a child process: open one database the given way, check it is migrated, print the milliseconds. */
async function child(mode: string, image: string | undefined): Promise<void> {
  const start = performance.now();
  const db =
    mode === 'fresh'
      ? await openPglite(undefined, TIME_ZONE)
      : await openPglite(undefined, TIME_ZONE, { loadDataDir: new Blob([readFileSync(image!)]) });
  if (mode === 'fresh') await migrate(db);
  const ms = performance.now() - start;
  // Both ways must give the same database: every migration applied, the device types there.
  const { rows } = await db.query<{ n: number; types: number }>(
    'SELECT (SELECT count(*)::int FROM schema_migration) AS n, (SELECT count(*)::int FROM device_type) AS types',
  );
  await db.close();
  process.stdout.write(JSON.stringify({ ms, migrations: rows[0]!.n, types: rows[0]!.types }));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-test-db-'));
  try {
    const image = path.join(dir, 'migrated.tar');
    const made = performance.now();
    const db = await openPglite(undefined, TIME_ZONE);
    await migrate(db);
    const blob = await db.dumpDataDir();
    writeFileSync(image, Buffer.from(await blob.arrayBuffer()));
    await db.close();
    const makeMs = performance.now() - made;

    const self = fileURLToPath(import.meta.url);
    const samples: Record<string, number[]> = { fresh: [], snapshot: [] };
    const wall: Record<string, number[]> = { fresh: [], snapshot: [] };
    const shape = new Set<string>();
    const loadBefore = loadavg();
    for (let i = 0; i < RUNS; i++) {
      // Alternate, so that a change in the machine's load hits both alike.
      for (const mode of i % 2 ? ['snapshot', 'fresh'] : ['fresh', 'snapshot']) {
        const started = performance.now();
        const out = execFileSync(process.execPath, [...process.execArgv, self, '--child', mode, image], {
          encoding: 'utf8',
        });
        wall[mode]!.push(performance.now() - started);
        const result = JSON.parse(out) as { ms: number; migrations: number; types: number };
        samples[mode]!.push(result.ms);
        shape.add(`${result.migrations} migrations, ${result.types} device types`);
      }
    }
    const loadAfter = loadavg();
    if (shape.size !== 1) throw new Error(`the two ways gave different databases: ${[...shape].join(' / ')}`);

    const row = (mode: string) => {
      const open = summarise(samples[mode]!);
      const proc = summarise(wall[mode]!);
      return [mode, String(open.runs), open.medianMs.toFixed(0), open.p95Ms.toFixed(0), proc.medianMs.toFixed(0)];
    };
    const fresh = summarise(samples.fresh!).medianMs;
    const snapshot = summarise(samples.snapshot!).medianMs;
    console.log(`# Test database per file on PGlite (${new Date().toISOString()})\n`);
    for (const line of machineInfo('not used')) console.log(`- ${line}`);
    console.log(`- Load average (1, 5, 15 min) before: ${loadBefore.map((l) => l.toFixed(2)).join(', ')}`);
    console.log(`- Load average (1, 5, 15 min) after: ${loadAfter.map((l) => l.toFixed(2)).join(', ')}`);
    console.log(`- Both ways: ${[...shape][0]}\n`);
    console.log(
      formatTable(
        ['way', 'runs', 'open + ready median ms', 'p95 ms', 'process median ms'],
        [row('fresh'), row('snapshot')],
      ),
    );
    console.log(
      `\nMaking the image once per run (open, migrate, dump, write): ${makeMs.toFixed(0)} ms, ` +
        `${(readFileSync(image).length / 1024 ** 2).toFixed(1)} MiB.`,
    );
    console.log(`Snapshot vs fresh (open + ready, medians): ${(fresh / snapshot).toFixed(1)}× faster.`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--child');
await (at >= 0 ? child(process.argv[at + 1]!, process.argv[at + 2]) : main());
