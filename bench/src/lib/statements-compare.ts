import type { FlatOccupancyStatement, StatementRow } from '@rodmenys/contract';

/*
 * bench:statements' comparison of the figures with the path before (56f68cb) (lib/statements-before/, a frozen
 * copy): flat by flat, kind by kind (its figures, heat parts and markers), occupant by occupant; and the aims
 * of docs/benchmarks.md, printed beside each figure with the machine's load.
 */

export interface Figures {
  Rows: StatementRow[];
  Occupancies: FlatOccupancyStatement[];
}

const text = (x: unknown) => JSON.stringify(x);

/** Where two answers of the figures differ (at most `limit` named): every member of every flat and part. */
export function figuresDifferences(after: Figures, before: Figures, limit = 10): string[] {
  const out: string[] = [];
  const push = (s: string) => {
    if (out.length < limit) out.push(s);
  };
  if (after.Rows.length !== before.Rows.length) push(`${after.Rows.length} flats now, ${before.Rows.length} before`);
  const old = new Map(before.Rows.map((r) => [r.FlatId, r]));
  for (const [i, r] of after.Rows.entries()) {
    const b = old.get(r.FlatId);
    if (!b) {
      push(`flat ${r.FlatId}: not in the answer before`);
      continue;
    }
    if (before.Rows[i]?.FlatId !== r.FlatId) push(`flat ${r.FlatId}: at place ${i}, before ${before.Rows[i]?.FlatId}`);
    if (text(r) === text(b)) continue;
    const { Kinds: ka, ...ra } = r;
    const { Kinds: kb, ...rb } = b;
    if (text(ra) !== text(rb)) push(`flat ${r.FlatId}: ${text(ra)} / before ${text(rb)}`);
    if (ka.length !== kb.length)
      push(`flat ${r.FlatId}: kinds ${ka.map((k) => k.Kind)} / before ${kb.map((k) => k.Kind)}`);
    for (const [j, k] of ka.entries())
      for (const key of Object.keys(k) as (keyof typeof k)[])
        if (text(k[key]) !== text(kb[j]?.[key]))
          push(`flat ${r.FlatId} ${k.Kind} ${key}: ${text(k[key])} / before ${text(kb[j]?.[key])}`);
  }
  const parts = (f: Figures) => f.Occupancies.map((o) => `${o.FlatId}/${o.OccupancyId}: ${text(o)}`);
  const pa = parts(after);
  const pb = parts(before);
  if (pa.length !== pb.length) push(`${pa.length} occupants' parts now, ${pb.length} before`);
  for (const [i, p] of pa.entries())
    if (p !== pb[i]) push(`occupant's part ${p.slice(0, 300)} / before ${pb[i]?.slice(0, 300)}`);
  return out;
}

/** A figure against its aim: whether this run met it (the aim is never moved by a run). */
export const againstAim = (ms: number, aimMs: number) => (ms <= aimMs ? 'within the aim' : 'ABOVE THE AIM');
