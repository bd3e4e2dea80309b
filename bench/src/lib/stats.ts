/** Timing helpers: run a function after warm-up and summarise the durations. */

export interface Timing {
  runs: number;
  medianMs: number;
  p95Ms: number;
}

/** The q-quantile (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantile of nothing');
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function summarise(durations: readonly number[]): Timing {
  const sorted = [...durations].sort((a, b) => a - b);
  return { runs: sorted.length, medianMs: median(sorted), p95Ms: quantile(sorted, 0.95) };
}

/** Milliseconds that `fn` takes, and its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

/** Runs `fn` `warmup` times untimed, then `runs` times timed, one after the other. */
export async function measure(fn: () => Promise<unknown>, { warmup = 2, runs = 10 } = {}): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const durations: number[] = [];
  for (let i = 0; i < runs; i++) durations.push((await timed(fn)).ms);
  return summarise(durations);
}

/** Milliseconds for a table: one decimal below 100, whole numbers above. */
export const fmtMs = (value: number) => (value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US'));

/** A positive whole number from the environment (`20_000_000` allowed), else the fallback. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}
