/**
 * The senders of the LoRaWAN benchmark: ChirpStack's HTTP integration (one event per request,
 * `concurrency` requests in flight) and wmbusmeters collectors (a batch of telegrams per request).
 * Every request is timed; anything but 200 stops the benchmark.
 */
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

export async function sendUplinks(
  origin: string,
  key: string,
  requests: readonly LnsRequest[],
  concurrency: number,
): Promise<SendResult> {
  const url = `${origin}/api/lorawan/chirpstack?event=up`;
  const answers: LnsEventResult[] = new Array(requests.length);
  const timing = await pool(requests.length, concurrency, async (n) => {
    const r = requests[n]!;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': r.contentType, [LNS_KEY_HEADER]: key },
      // A Buffer is bytes as fetch sends them; its type is not BodyInit's in @types/node 20.
      body: typeof r.body === 'string' ? r.body : new Uint8Array(r.body),
    });
    if (res.status !== 200) throw new Error(`uplink ${n}: ${res.status} ${await res.text()}`);
    answers[n] = (await res.json()) as LnsEventResult;
  });
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
  const timing = await pool(batches.length, concurrency, async (n) => {
    const res = await fetch(`${origin}/api/ingest/wmbusmeters`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: batches[n]!,
    });
    if (res.status !== 200) throw new Error(`batch ${n}: ${res.status} ${await res.text()}`);
    stored += ((await res.json()) as { Stored: number }).Stored;
  });
  return { requests: batches.length, ...timing, stored };
}
