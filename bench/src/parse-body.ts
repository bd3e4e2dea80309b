/**
 * `npm run bench:parse -w bench`: how long one huge collector body holds the
 * event loop (docs/ingest.md, "Big bodies").
 *
 * Bodies of about 40 MB: (A) 600,000 telegrams and a stray `}` at the end, as
 * reported; (B) 90,000 larger telegrams (under the 100,000 per request limit, so
 * all of it is read) and a stray `}` at the end; (C) the same 90,000 without the
 * error. For each: the parser before (whole-body JSON.parse, then a bisection for
 * the error position: bench/src/lib/parse-body-before.ts) and now
 * (server/src/services/ingest/parse-body.ts), in this process, with a 1 ms timer
 * recording the longest time the event loop was held. Then the built server
 * (server/dist/server.js on an empty embedded database, a process of its own) receives each body by HTTP
 * while another client sends a small request every 10 ms: the slowest of those
 * answers is what any other user would have waited.
 *
 * BENCH_PARSE_RUNS sets the runs per cell (default 3; the table shows the median).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseTelegramBody } from '@rodmenys/server/services/ingest/parse-body.js';
import { startBuiltServer } from './lib/built-server.js';
import { machineInfo } from './lib/machine.js';
import { parseTelegramBody as parseBefore } from './lib/parse-body-before.js';
import { envInt, median } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const RUNS = envInt('BENCH_PARSE_RUNS', 3);
/** BENCH_PARSE_HTTP=0 leaves out the HTTP part. */
const HTTP = process.env.BENCH_PARSE_HTTP !== '0';
const log = (message: string) => console.error(`[bench:parse] ${message}`);

function telegram(i: number, pad: number): string {
  return JSON.stringify({
    _: 'telegram',
    media: 'warm water',
    meter: 'multical21',
    name: `m${i}`,
    id: String(10_000_000 + (i % 90_000_000)),
    total_m3: 123.456 + i / 1000,
    target_m3: 120.001,
    current_status: 'OK',
    timestamp: '2026-01-14T01:00:00Z',
    ...(pad ? { note: 'x'.repeat(pad) } : {}),
  });
}

/** The smallest telegram wmbusmeters could send: 600,000 of them are about 40 MB. */
const small = (i: number) => `{"id":"${10_000_000 + i}","total_m3":${i / 1000},"timestamp":"2026-01-14T01:00:00Z"}`;

function body(count: number, pad: number, strayBrace: boolean): string {
  const parts = Array.from({ length: count }, (_, i) => (pad < 0 ? small(i) : telegram(i, pad)));
  // `,}` where a value should be: V8 names no position, so the old parser bisected.
  return `[${parts.join(',\n')}${strayBrace ? ',\n}' : ''}]`;
}

/** Runs `fn` while a 1 ms timer records the longest gap between its ticks. */
async function heldFor(
  fn: () => Promise<unknown>,
): Promise<{ ms: number; maxHeldMs: number; maxCpuMs: number; outcome: string }> {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let maxHeld = 0;
  let maxCpu = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    maxHeld = Math.max(maxHeld, now - last);
    // CPU this process used between two ticks: the hold without the time other processes took.
    maxCpu = Math.max(maxCpu, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const start = performance.now();
  last = start;
  lastCpu = process.cpuUsage();
  let outcome: string;
  try {
    const result = await fn();
    outcome = Array.isArray(result) ? `${result.length} telegrams` : String(result);
  } catch (err) {
    outcome = (err as Error).message.slice(0, 60);
  }
  const ms = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(timer);
  return { ms, maxHeldMs: maxHeld, maxCpuMs: maxCpu, outcome };
}

const ROOT = path.resolve(import.meta.dirname, '../..');

const startServer = (env: NodeJS.ProcessEnv, port: number) => startBuiltServer({ ...env, PORT: String(port) });

async function main() {
  const bodies: { name: string; text: string; bytes?: Uint8Array<ArrayBuffer> }[] = [
    { name: 'A: 600,000 telegrams + stray }', text: body(600_000, -1, true) },
    { name: 'B: 90,000 telegrams + stray }', text: body(90_000, 250, true) },
    { name: 'C: 90,000 telegrams, valid', text: body(90_000, 250, false) },
  ];
  const rows: string[][] = [];
  for (const b of bodies) b.bytes = new TextEncoder().encode(b.text);
  for (const b of bodies) {
    const mb = (Buffer.byteLength(b.text) / 1e6).toFixed(1);
    const parsers: [string, (t: string) => Promise<unknown>][] = [
      ['before', async (t) => parseBefore(t)],
      ['now', (t) => parseTelegramBody(t)],
    ];
    for (const [label, parse] of parsers) {
      log(`${b.name}, parser ${label}`);
      const runs = [];
      for (let r = 0; r < RUNS; r++) runs.push(await heldFor(() => parse(b.text)));
      rows.push([
        b.name,
        mb,
        `parser ${label}`,
        median(runs.map((r) => r.ms)).toFixed(0),
        median(runs.map((r) => r.maxHeldMs)).toFixed(0),
        median(runs.map((r) => r.maxCpuMs)).toFixed(0),
        runs[0]!.outcome,
      ]);
    }
  }

  if (HTTP) await overHttp(bodies, rows);
  print(rows);
}

async function overHttp(bodies: { name: string; text: string; bytes?: Uint8Array<ArrayBuffer> }[], rows: string[][]) {
  log('the built server over HTTP');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-parse-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO_DATA: 'none',
    WEB_DIR: '',
    LOG_LEVEL: 'warn',
  };
  const keyOut = execFileSync(process.execPath, ['server/dist/cli/collector-key.js', 'create', 'bench'], {
    cwd: ROOT,
    env,
  }).toString();
  const key = /rmc_\S+/.exec(keyOut)![0];
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = await startServer(env, port);
  const server = { api: `http://127.0.0.1:${port}/api` };
  try {
    for (const b of bodies) {
      const runs = [];
      for (let r = 0; r < RUNS; r++) {
        let stop = false;
        const waits: number[] = [];
        const probe = (async () => {
          while (!stop) {
            const t0 = performance.now();
            await (await fetch(`${server.api}/users/me`)).text();
            waits.push(performance.now() - t0);
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })();
        const t0 = performance.now();
        const res = await fetch(`${server.api}/ingest/wmbusmeters`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-collector-key': key },
          body: b.bytes,
        });
        const answer = `${res.status} ${(await res.text()).slice(0, 50)}`;
        const ms = performance.now() - t0;
        stop = true;
        await probe;
        runs.push({ ms, slowest: Math.max(...waits), answer });
      }
      rows.push([
        b.name,
        (Buffer.byteLength(b.text) / 1e6).toFixed(1),
        'HTTP, server now',
        median(runs.map((r) => r.ms)).toFixed(0),
        median(runs.map((r) => r.slowest)).toFixed(0),
        '',
        runs[0]!.answer,
      ]);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(rows: string[][]) {
  console.log(
    formatTable(
      ['Body', 'MB', 'Path', 'Total ms', 'Longest hold ms', 'Its CPU ms', 'Outcome'],
      rows.map((r) => r.map((c) => c.replace(/\|/g, '/'))),
    ),
  );
  console.log(
    '\nLongest hold: for the parsers, the longest gap between two ticks of a 1 ms timer while the body was parsed; ' +
      'over HTTP, the slowest answer of the server to a small request (GET /api/users/me, 401) sent every 10 ms meanwhile. ' +
      'Its CPU: the most CPU time this process used between two ticks (the hold without the time the ' +
      'operating system gave other processes; the two differ on a loaded machine). ' +
      `Medians of ${RUNS} runs. The telegrams of C match no device: they go to the unmatched inbox.`,
  );
  console.log(`\n${machineInfo('not used (embedded PGlite)').join('\n')}`);
  console.log(
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

await main();
