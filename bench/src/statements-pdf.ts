/**
 * Statement PDF figures (docs/statements.md), printed, not asserted: the PDF of one
 * 100-flat building (aim ≤ 5 s) and the zip of every building, each with the peak
 * resident memory while it is written, on a PostgreSQL server and on PGlite. The zip's
 * peak should stay near one building's: buildings are drawn one at a time.
 *
 * Then one building's PDF by the path before (lib/statements-pdf-before.ts: the occupants
 * of each moved flat looked up flat by flat) and by today's (batched), alternating in the
 * same run, with the queries each sent: both must draw the same text (pdftotext), else
 * FAILED and exit 1.
 *
 *   npm run bench:statements-pdf -w bench
 *   (BENCH_PDF_BUILDINGS, BENCH_PDF_FLATS, BENCH_PDF_RUNS, BENCH_PDF_MOVES_PERCENT)
 *
 * Each building: BENCH_PDF_FLATS flats (default 100) with 4 allocators, a hot and a cold
 * water meter each, a building heat meter, two readings a month for 15 months; each flat
 * an occupant, and BENCH_PDF_MOVES_PERCENT % of the flats (default 5) a move on the 15th
 * of the month (docs/occupancies.md), so their PDF has a page per occupant.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db, Queryable } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { refreshMonthEnds } from '@rodmenys/server/services/data-quality/refresh-month-ends.js';
import { makePlace } from '@rodmenys/server/services/locations/make-place.js';
import { statementsPdf } from '@rodmenys/server/services/statements/pdf.js';
import { machineInfo } from './lib/machine.js';
import { addOccupanciesAndMoves } from './lib/moves.js';
import { startPostgres } from './lib/postgres.js';
import { buildingPdfBefore } from './lib/statements-pdf-before.js';
import { envInt, fmtMs, median } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const BUILDINGS = envInt('BENCH_PDF_BUILDINGS', 10);
const FLATS = envInt('BENCH_PDF_FLATS', 100);
const RUNS = envInt('BENCH_PDF_RUNS', 3);
const MOVES_PERCENT = envInt('BENCH_PDF_MOVES_PERCENT', 5);
const MONTHS = 15;

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load1 = () => loadavg()[0]!.toFixed(1);
const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(0);

/** One building with its flats, devices and readings, written by set-based SQL. */
async function makeStatementBuilding(db: Db, n: number, firstMonth: string): Promise<number> {
  const building = await makePlace(db, [
    'Lietuva',
    'Šiaulių apskritis',
    'Šiaulių m. sav.',
    'Šiauliai',
    'Tilžės g.',
    String(n),
  ]);
  await db.query(
    `INSERT INTO location (id, parent_id, level, name, flat_order, path, country, county, region, city, street, building, flat, area_m2)
     SELECT n.id, b.id, 7, n.f::text, n.f, b.path || n.id, b.country, b.county, b.region, b.city, b.street, b.building,
            n.f::text, 40 + (n.f * 7) % 45
       FROM location b,
            (SELECT nextval(pg_get_serial_sequence('location', 'id'))::int AS id, f FROM generate_series(1, $2::int) f) n
      WHERE b.id = $1`,
    [building.id, FLATS],
  );
  // Per flat: 4 allocators (types 1), a cold (3) and a hot (4) water meter; the building's heat meter (11).
  await db.query(
    `INSERT INTO device (device_type_id, location_id, device_code, counter_code, rating_factor, installed_at)
     SELECT t.type_id, f.id, concat('P', f.id, '-', t.k), concat('C-P', f.id, '-', t.k),
            CASE WHEN t.type_id = 1 THEN 0.8 + t.k * 0.15 END, $2::date - interval '1 month'
       FROM location f,
            (VALUES (1, 1), (1, 2), (1, 3), (1, 4), (3, 5), (4, 6)) AS t(type_id, k)
      WHERE f.parent_id = $1 AND f.level = 7
     UNION ALL
     SELECT 11, $1, concat('P', $1, '-B'), concat('C-P', $1, '-B'), NULL, $2::date - interval '1 month'`,
    [building.id, firstMonth],
  );
  // Two readings a month: mid-month and an hour before each month end; rising with a season.
  await db.query(
    `INSERT INTO reading (device_id, ts, value)
     SELECT d.id, r.ts,
            round((CASE d.device_type_id WHEN 1 THEN 30 + d.id % 23 WHEN 11 THEN 90000 ELSE 2 + (d.id % 7) * 0.5 END
                   * (r.k / 2.0 * (1 + r.k / 60.0) + 0.8 * sin(r.k * pi() / 12)))::numeric, 3)
       FROM device d JOIN location l ON l.id = d.location_id,
            LATERAL (SELECT k, CASE WHEN k % 2 = 0
                                    THEN (($2::date + make_interval(months => k / 2))::timestamp::timestamptz - interval '1 hour')
                                    ELSE (($2::date + make_interval(months => k / 2))::timestamp::timestamptz - interval '15 days') END AS ts
                       FROM generate_series(1, $3::int * 2) k) r
      WHERE l.id = $1 OR l.parent_id = $1`,
    [building.id, firstMonth, MONTHS],
  );
  return building.id;
}

/**
 * Every flat an occupant (a client of its own, one open occupancy), and every (100 / MOVES_PERCENT)th
 * flat a move on the 15th of `month`: the occupancy ends there, a new one starts with a new client, and
 * the moving-day values are computed as the scheduled work does. Answers how many flats moved.
 */
async function addOccupants(db: Db, month: string): Promise<number> {
  await db.query(`INSERT INTO client (code, name) SELECT 'C-' || id, 'Occupant ' || id FROM location WHERE level = 7`);
  await db.query(`UPDATE location l SET client_id = c.id FROM client c WHERE c.code = 'C-' || l.id AND l.level = 7`);
  return (await addOccupanciesAndMoves(db, month, Math.max(1, Math.round(100 / MOVES_PERCENT)))).length;
}

/** With BENCH_PDF_OUT set, the first building's PDF is also written there, to look at. */
async function savePdf(db: Db, month: string, buildingId: number) {
  const out = process.env.BENCH_PDF_OUT;
  if (!out) return;
  const file = await statementsPdf(db, { month, scope: null, parents: [buildingId], lang: 'lt' });
  await pipeline(file!.stream, createWriteStream(out));
  log(`wrote ${out}`);
}

async function drain(stream: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Uint8Array).length;
  return bytes;
}

/** Time of each run and the peak RSS seen while any run was going (sampled every 5 ms). */
async function measurePdf(fn: () => Promise<number>) {
  await fn();
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const times: number[] = [];
  let bytes = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      bytes = await fn();
      times.push(performance.now() - start);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  } finally {
    clearInterval(timer);
  }
  return { ms: median(times), before, peak, bytes };
}

/** A database that counts the queries sent through it. */
function counting(db: Queryable): Queryable & { count: number } {
  const counted = {
    count: 0,
    query: ((sql: string, params?: readonly unknown[]) => {
      counted.count++;
      return db.query(sql, params);
    }) as Queryable['query'],
  };
  return counted;
}

/** A PDF's text as poppler's pdftotext extracts it (the layout kept). */
function pdfText(pdf: Buffer, dir: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** One building's PDF before (occupants flat by flat) and after (batched), side by side. */
interface Versus {
  database: string;
  before: string;
  after: string;
  queries: string;
  load: string;
  check: string;
  failed: boolean;
}

/**
 * One building's PDF by the path before and today's, alternating run by run (after one warm-up of
 * each), with the queries each sent; both PDFs' text must be the same in both languages.
 */
async function versus(label: string, db: Db, month: string, buildingId: number): Promise<Versus> {
  const after = (q: Queryable, lang: 'lt' | 'en') =>
    statementsPdf(q, { month, scope: null, parents: [buildingId], lang }).then((f) => bytesOf(f!.stream));
  const before = (q: Queryable, lang: 'lt' | 'en') => buildingPdfBefore(q, month, buildingId, lang).then(bytesOf);
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-pdf-text-'));
  const mismatches: string[] = [];
  let queries = '';
  try {
    for (const lang of ['lt', 'en'] as const) {
      const b = counting(db);
      const a = counting(db);
      const textBefore = pdfText(await before(b, lang), dir, `before-${lang}.pdf`);
      const textAfter = pdfText(await after(a, lang), dir, `after-${lang}.pdf`);
      if (textBefore !== textAfter) mismatches.push(lang);
      if (!/Occupant|Gyventojas/.test(textAfter)) mismatches.push(`${lang}: no occupant's page`);
      queries = `${b.count} → ${a.count}`;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const times = { before: [] as number[], after: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    await before(db, 'lt');
    times.before.push(performance.now() - start);
    start = performance.now();
    await after(db, 'lt');
    times.after.push(performance.now() - start);
  }
  const { rows: movedHere } = await db.query<{ n: number }>(
    `SELECT count(DISTINCT o.location_id)::int AS n FROM occupancy o JOIN location f ON f.id = o.location_id
      WHERE f.parent_id = $1 AND o.move_in > $2::date AND o.move_in < ($2::date + interval '1 month')::date`,
    [buildingId, `${month}-01`],
  );
  const flatsMoved = movedHere[0]!.n;
  log(`${label}: before ${fmtMs(median(times.before))} ms, after ${fmtMs(median(times.after))} ms`);
  return {
    database: label,
    before: fmtMs(median(times.before)),
    after: fmtMs(median(times.after)),
    queries,
    load: load1(),
    check: mismatches.length
      ? `FAILED: the text differs (${mismatches.join(', ')})`
      : `same text (lt, en), ${flatsMoved} of ${FLATS} flats with a move`,
    failed: mismatches.length > 0,
  };
}

interface Row {
  database: string;
  step: string;
  ms: string;
  aim: string;
  size: string;
  rss: string;
  load: string;
}

async function run(label: string, db: Db, month: string, buildingIds: number[]): Promise<Row[]> {
  const rows: Row[] = [];
  const one = await measurePdf(async () => {
    const file = await statementsPdf(db, { month, scope: null, parents: [buildingIds[0]!], lang: 'lt' });
    return drain(file!.stream);
  });
  rows.push({
    database: label,
    step: `PDF, one building (${FLATS} flats)`,
    ms: fmtMs(one.ms),
    aim: '≤ 5,000',
    size: `${(one.bytes / 1024).toFixed(0)} KiB`,
    rss: `${mib(one.before)} → ${mib(one.peak)}`,
    load: load1(),
  });
  log(`${label}: one building ${fmtMs(one.ms)} ms`);
  const all = await measurePdf(async () => {
    const file = await statementsPdf(db, { month, scope: null, parents: null, lang: 'lt' });
    return drain(file!.stream);
  });
  rows.push({
    database: label,
    step: `zip, ${buildingIds.length} buildings (${buildingIds.length * FLATS} flats)`,
    ms: fmtMs(all.ms),
    aim: '',
    size: `${(all.bytes / 1024).toFixed(0)} KiB`,
    rss: `${mib(all.before)} → ${mib(all.peak)}`,
    load: load1(),
  });
  log(`${label}: zip ${fmtMs(all.ms)} ms`);
  return rows;
}

async function prepare(
  db: Db,
  label: string,
  now: Date,
  firstMonth: string,
  month: string,
): Promise<{ ids: number[]; moved: number }> {
  await migrate(db);
  const ids: number[] = [];
  const start = performance.now();
  for (let b = 1; b <= BUILDINGS; b++) ids.push(await makeStatementBuilding(db, b, firstMonth));
  await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  await refreshMonthEnds(db, now);
  const moved = await addOccupants(db, month);
  await db.exec('ANALYZE');
  log(`${label}: ${BUILDINGS} buildings with month ends, ${moved} moves in ${fmtMs(performance.now() - start)} ms`);
  return { ids, moved };
}

async function main() {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - MONTHS, 1));
  const firstMonth = first.toISOString().slice(0, 10);
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const rows: Row[] = [];
  const sideBySide: Versus[] = [];
  let version = '';
  const cluster = await startPostgres();
  try {
    const db = openPostgres(cluster.url, TIME_ZONE);
    try {
      const { ids } = await prepare(db, 'PostgreSQL', now, firstMonth, month);
      version = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
      rows.push(...(await run('PostgreSQL', db, month, ids)));
      sideBySide.push(await versus('PostgreSQL', db, month, ids[0]!));
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-pdf-'));
  try {
    const db = await openPglite(dir, TIME_ZONE);
    try {
      const { ids } = await prepare(db, 'PGlite', now, firstMonth, month);
      await savePdf(db, month, ids[0]!);
      rows.push(...(await run('PGlite', db, month, ids)));
      sideBySide.push(await versus('PGlite', db, month, ids[0]!));
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nStatement PDF (npm run bench:statements-pdf -w bench), month ${month}, ${new Date().toISOString()}`);
  for (const line of machineInfo(version)) console.log(`- ${line}`);
  console.log(`- ms: median of ${RUNS} runs after one warm-up; the stream read to its end`);
  console.log(
    '- RSS MiB: before the runs → peak during them (sampled every 5 ms), this process (PGlite runs inside it)',
  );
  console.log('- load average (1 min) after each step; the machine is shared\n');
  console.log(
    formatTable(
      ['Database', 'Step', 'ms', 'Aim', 'Output', 'RSS MiB', 'Load'],
      rows.map((r) => [r.database, r.step, r.ms, r.aim, r.size, r.rss, r.load]),
    ),
  );
  console.log(
    `\nOne building's PDF (${FLATS} flats, ${MOVES_PERCENT} % with a move): the occupants flat by flat (before) and batched (after)`,
  );
  console.log(`- ms: median of ${RUNS} runs each, alternating, after one warm-up of each; load after the runs\n`);
  console.log(
    formatTable(
      ['Database', 'Before ms', 'After ms', 'Queries', 'Load', 'Check'],
      sideBySide.map((v) => [v.database, v.before, v.after, v.queries, v.load, v.check]),
    ),
  );
  if (sideBySide.some((v) => v.failed)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
