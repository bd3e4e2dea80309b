/**
 * The senders of the LoRaWAN benchmark: ChirpStack's HTTP integration (one event per request,
 * `concurrency` requests in flight) and wmbusmeters collectors (a batch of telegrams per request).
 * Every request is timed; anything but 200 stops the benchmark.
 *
 * The senders stand in for an LNS and collectors on other machines, yet share this machine's two
 * cores with the server and PostgreSQL: they use node:http with kept-alive connections, which
 * costs a request a fraction of what fetch does (fetch took more CPU per uplink than the server
 * itself: docs/benchmarks.md, "LoRaWAN ingest"). Their CPU is printed beside the server's.
 */
import http from 'node:http';
import { LNS_KEY_HEADER, type LnsEventResult } from '@rodmenys/contract';
import type { LnsRequest } from './lorawan-world.js';
import { quantile } from './stats.js';

export interface SendResult {
  requests: number;
  seconds: number;
  p50Ms: number;
  p95Ms: number;
  /** The answers' outcomes (`stored`, `duplicate`, …) and, for stored uplinks, whether they gave a reading. */
  outcomes: Record<string, number>;
  /** Per request, in the order given: the answer. */
  answers: LnsEventResult[];
}

/** Runs `work(n)` for n = 0…count-1 from `concurrency` loops, timing each; returns the wall time too. */
async function pool(count: number, concurrency: number, work: (n: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const n = next++;
        const t0 = performance.now();
        await work(n);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { seconds, p50Ms: quantile(latencies, 0.5), p95Ms: quantile(latencies, 0.95) };
}

/** One POST over a kept-alive connection of `agent`: its status and its body as text. */
function post(
  agent: http.Agent,
  url: URL,
  headers: Record<string, string>,
  body: string | Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Kept-alive connections, one per sender in flight. */
const agentFor = (concurrency: number) => new http.Agent({ keepAlive: true, maxSockets: concurrency });

export async function sendUplinks(
  origin: string,
  key: string,
  requests: readonly LnsRequest[],
  concurrency: number,
): Promise<SendResult> {
  const url = new URL(`${origin}/api/lorawan/chirpstack?event=up`);
  const answers: LnsEventResult[] = new Array(requests.length);
  const agent = agentFor(concurrency);
  const timing = await pool(requests.length, concurrency, async (n) => {
    const r = requests[n]!;
    const res = await post(agent, url, { 'content-type': r.contentType, [LNS_KEY_HEADER]: key }, r.body);
    if (res.status !== 200) throw new Error(`uplink ${n}: ${res.status} ${res.text}`);
    answers[n] = JSON.parse(res.text) as LnsEventResult;
  }).finally(() => agent.destroy());
  const outcomes: Record<string, number> = {};
  for (const a of answers) {
    const name = a.Outcome === 'stored' ? `stored, ${a.Reading ? 'reading' : `no reading (${a.Reason})`}` : a.Outcome;
    outcomes[name] = (outcomes[name] ?? 0) + 1;
  }
  return { requests: requests.length, ...timing, outcomes, answers };
}

export async function sendTelegrams(
  origin: string,
  key: string,
  batches: readonly string[],
  concurrency: number,
): Promise<{ requests: number; seconds: number; p50Ms: number; p95Ms: number; stored: number }> {
  let stored = 0;
  const url = new URL(`${origin}/api/ingest/wmbusmeters`);
  const agent = agentFor(concurrency);
  const headers = { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` };
  const timing = await pool(batches.length, concurrency, async (n) => {
    const res = await post(agent, url, headers, batches[n]!);
    if (res.status !== 200) throw new Error(`batch ${n}: ${res.status} ${res.text}`);
    stored += (JSON.parse(res.text) as { Stored: number }).Stored;
  }).finally(() => agent.destroy());
  return { requests: batches.length, ...timing, stored };
}
