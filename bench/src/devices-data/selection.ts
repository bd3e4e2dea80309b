/* One selection measured: HTTP (each encoding), the handler, the naive query, the parts before and after. */

import { request } from 'node:http';
import type { ReadingRow } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { getDevicesDataJson } from '@rodmenys/server/services/devices/devices-data/index.js';
import { ACCOUNTS_SQL } from '@rodmenys/server/services/devices/devices-data/sql.js';
import { cpuClock } from '../lib/cpu.js';
import { runParts } from '../lib/devices-data-before.js';
import { NAIVE_7DAY_SQL, NAIVE_SQL } from '../lib/naive-devices-data.js';
import { startServer } from '../lib/server.js';
import { fmtMs, median, summarise, type Timing, timed } from '../lib/stats.js';
import {
  ALLOCATOR,
  type Answer,
  compare,
  fromHttp,
  type lastMonth,
  log,
  periodBounds,
  RUNS,
  type Selection,
  TIME_ZONE,
  WARMUP,
} from './shared.js';

/** The encodings measured over HTTP: none, then what @fastify/compress answers (server/src/app.ts). */
export const ENCODINGS = ['identity', 'br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];
/** Links for the transfer estimate: a LAN and slow links (bits per second). */
export const LINKS: Array<[string, number]> = [
  ['1 Gbit/s LAN', 1e9],
  ['100 Mbit/s', 100e6],
  ['20 Mbit/s', 20e6],
  ['4 Mbit/s (slow mobile)', 4e6],
];

/** The bytes the server sends for `url` with this Accept-Encoding (the body as it goes over the wire, undecoded). */
export function wireBytes(url: string, headers: Record<string, string>, encoding: Encoding): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, 'accept-encoding': encoding } }, (res) => {
      let n = 0;
      res.on('data', (chunk: Buffer) => {
        n += chunk.length;
      });
      res.on('end', () => {
        const got = res.headers['content-encoding'] ?? 'identity';
        if (got !== encoding) reject(new Error(`asked for ${encoding}, got ${got}`));
        else resolve(n);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Result {
  database: string;
  selection: Selection;
  /** Over HTTP uncompressed (Accept-Encoding: identity). */
  http: Timing;
  /** Over HTTP with each compressed encoding, decoded by fetch as a browser does. */
  compressed: Record<Exclude<Encoding, 'identity'>, Timing>;
  /** Bytes on the wire per encoding. */
  wire: Record<Encoding, number>;
  /** Over HTTP, each call right after a master-data change (no device text kept). */
  cold: Timing;
  handler: Timing;
  naive: Timing;
  /** The naive query of earlier runs (7-day look-back, end before the midnight rule). */
  naive7: Timing;
  /** The part statements with the midnight rule (after) and as before it. */
  partsAfter: Timing;
  partsBefore: Timing;
  /** Mean CPU milliseconds per call, this process plus the database server's backends. */
  cpu: Record<Sample, number>;
  responseKb: number;
  agree: string;
  /** Devices whose row the midnight rule changes, and rows where the 7-day naive query differs from the product. */
  ruleChanged: number;
  naive7Differs: number;
}

export type Sample = 'http' | 'br' | 'gzip' | 'cold' | 'handler' | 'naive' | 'naive7' | 'partsAfter' | 'partsBefore';

/** HTTP, handler and naive query for one selection, interleaved round by round. */
export async function runSelection(
  db: Db,
  database: string,
  selection: Selection,
  month: ReturnType<typeof lastMonth>,
) {
  const server = await startServer(db, TIME_ZONE);
  try {
    const [f, t] = await periodBounds(db, month.dateFrom, month.dateTill);
    const query = new URLSearchParams({
      dateFrom: month.dateFrom,
      dateTill: month.dateTill,
      deviceTypeId: String(ALLOCATOR),
      ...(selection.parents ? { locationParentId: selection.parents.join(',') } : {}),
    });
    const url = `${server.api}/devices/GetDevicesData?${query}`;
    const headers = { authorization: `Bearer ${server.token}` };
    // fetch asks for gzip/br by default: the uncompressed figure must say identity.
    const fetchAs = (encoding: Encoding) => async () => {
      const res = await fetch(url, { headers: { ...headers, 'accept-encoding': encoding } });
      const body = await res.text();
      if (!res.ok) throw new Error(`GetDevicesData ${res.status}: ${body.slice(0, 300)}`);
      if ((res.headers.get('content-encoding') ?? 'identity') !== encoding) throw new Error(`not ${encoding}`);
      return body;
    };
    const http = fetchAs('identity');
    // The service as the route calls it (with the app's caches): the answer's JSON text, written by the database.
    const handler = () =>
      getDevicesDataJson(
        db,
        {
          deviceTypeId: ALLOCATOR,
          range: { from: month.dateFrom, till: month.dateTill },
          scope: null,
          parents: selection.parents,
          timeZone: TIME_ZONE,
        },
        server.app.devicesDataCaches,
      );
    const naive = () => db.query<{ DeviceId: number } & Answer>(NAIVE_SQL, [ALLOCATOR, null, selection.parents, f, t]);
    const naive7 = () =>
      db.query<{ DeviceId: number } & Answer>(NAIVE_7DAY_SQL, [ALLOCATOR, null, selection.parents, f, t]);
    const partsInput = {
      deviceTypeId: ALLOCATOR,
      range: { from: month.dateFrom, till: month.dateTill },
      scope: null,
      parents: selection.parents,
      timeZone: TIME_ZONE,
    };
    const partsAfter = () => runParts(db, partsInput, 'after');
    const partsBefore = () => runParts(db, partsInput, 'before');

    const body = await http();
    const viaHttp = (JSON.parse(body) as ReadingRow[]).map((r) => ({ DeviceId: r.DeviceId, ...fromHttp(r) }));
    const viaHandler = (JSON.parse((await handler()).json.toString()) as ReadingRow[]).map((r) => ({
      DeviceId: r.DeviceId,
      ...fromHttp(r),
    }));
    const first = await timed(naive);
    const viaNaive = first.result.rows;
    // The naive query can take seconds: fewer runs of it (at least 3), about 20 s in all.
    const naiveRuns = Math.min(RUNS, Math.max(3, Math.ceil(20_000 / first.ms)));
    const diffs = [...compare(viaHttp, viaNaive), ...compare(viaHandler, viaNaive)];
    // What the rule changes (information, not a failure): rows before and after it, and the 7-day naive query.
    const [after, before] = [await partsAfter(), await partsBefore()];
    if (after.size !== viaHttp.length)
      diffs.push(`the part statements gave ${after.size} rows, HTTP ${viaHttp.length}`);
    const ruleChanged = [...after].filter(([id, tail]) => before.get(id) !== tail).length;
    const naive7Differs = new Set(compare(viaHttp, (await naive7()).rows).map((line) => line.replace(/:.*/, ''))).size;
    // The first call read every device's text; the second uses the texts kept: the same bytes.
    if ((await http()) !== body) diffs.push('a second call (device texts kept) answered differently from the first');
    for (const encoding of ['br', 'gzip'] as const) {
      if ((await fetchAs(encoding)()) !== body) diffs.push(`the ${encoding} answer decodes to other text`);
    }
    const wire = {} as Record<Encoding, number>;
    for (const encoding of ENCODINGS) wire[encoding] = await wireBytes(url, headers, encoding);
    if (viaHttp.length !== selection.devices) diffs.push(`expected ${selection.devices} rows, got ${viaHttp.length}`);
    if (diffs.length > 0) log(`${database} ${selection.label}: answers differ:\n  ${diffs.slice(0, 10).join('\n  ')}`);
    const withValues = viaHttp.filter((r) => r.till !== null).length;

    const samples: Record<Sample, number[]> = {
      http: [],
      br: [],
      gzip: [],
      cold: [],
      handler: [],
      naive: [],
      naive7: [],
      partsAfter: [],
      partsBefore: [],
    };
    const cpu: Record<Sample, number> = {
      http: 0,
      br: 0,
      gzip: 0,
      cold: 0,
      handler: 0,
      naive: 0,
      naive7: 0,
      partsAfter: 0,
      partsBefore: 0,
    };
    // What every master-data change does (migration 040's trigger): the texts kept for the devices are dropped.
    const changeMasterData = () => db.query('INSERT INTO master_change DEFAULT VALUES');
    let clock: () => Promise<number> = async () => 0;
    for (let round = 0; round < WARMUP + RUNS; round++) {
      // The pool has opened its connections by now: their backends are the ones to watch.
      if (round === WARMUP) clock = await cpuClock(db);
      // Before and after the midnight rule in turn, in alternating order from round to round.
      const rule: Array<[Sample, () => Promise<unknown>]> = [
        ['partsAfter', partsAfter],
        ['partsBefore', partsBefore],
      ];
      const fns: Array<[Sample, () => Promise<unknown>]> = [
        ['http', http],
        ['br', fetchAs('br')],
        ['gzip', fetchAs('gzip')],
        ['cold', http],
        ['handler', handler],
        ...(round % 2 === 0 ? rule : rule.reverse()),
        ['naive', naive],
        ['naive7', naive7],
      ];
      for (const [name, fn] of fns) {
        const slow = name === 'naive' || name === 'naive7';
        const runs = slow ? naiveRuns : RUNS;
        if (slow && (round < WARMUP - 1 || round >= WARMUP + runs)) continue;
        if (name === 'cold') await changeMasterData();
        const before = await clock();
        const { ms } = await timed(fn);
        if (round >= WARMUP) {
          samples[name].push(ms);
          cpu[name] += ((await clock()) - before) / runs;
        }
      }
    }
    // The accounts statement alone (docs/occupancies.md) over the answer's devices, as each call runs it;
    // every flat has an open occupancy of its client here, so it looks each flat up and finds nothing.
    const accountIds = viaHttp.map((r) => r.DeviceId);
    const accountsMs: number[] = [];
    let accountsCpu = 0;
    let accountsFound = 0;
    for (let round = 0; round < WARMUP + RUNS; round++) {
      const before = await clock();
      const { ms, result } = await timed(() => db.query(ACCOUNTS_SQL, [accountIds, month.dateTill]));
      accountsFound = result.rows.length;
      if (round >= WARMUP) {
        accountsMs.push(ms);
        accountsCpu += ((await clock()) - before) / RUNS;
      }
    }
    log(
      `${database} ${selection.label}: accounts statement alone ${fmtMs(median(accountsMs))} ms median, ` +
        `CPU ${fmtMs(accountsCpu)} ms, ${accountsFound} rows found`,
    );
    const result: Result = {
      database,
      selection,
      http: summarise(samples.http),
      compressed: { br: summarise(samples.br), gzip: summarise(samples.gzip) },
      wire,
      cold: summarise(samples.cold),
      handler: summarise(samples.handler),
      naive: summarise(samples.naive),
      naive7: summarise(samples.naive7),
      partsAfter: summarise(samples.partsAfter),
      partsBefore: summarise(samples.partsBefore),
      cpu,
      ruleChanged,
      naive7Differs,
      responseKb: Buffer.byteLength(body) / 1024,
      agree:
        diffs.length === 0
          ? `yes (${viaHttp.length} rows, ${withValues} with readings)`
          : `NO: ${diffs.length} differences`,
    };
    log(
      `${database} ${selection.label}: http ${fmtMs(result.http.medianMs)} ms, handler ${fmtMs(result.handler.medianMs)} ms, ` +
        `parts after/before ${fmtMs(result.partsAfter.medianMs)}/${fmtMs(result.partsBefore.medianMs)} ms, ` +
        `naive ${fmtMs(result.naive.medianMs)} ms (7-day ${fmtMs(result.naive7.medianMs)}); agree ${result.agree}`,
    );
    return result;
  } finally {
    await server.close();
  }
}
