import type { Space } from './space.js';
import type { SplitFlat } from './types.js';

/*
 * Step 6's minimum rule (docs/heat-method.md): a device flat's space heating without its common
 * part, per m², is at least k_min × the building's average. A flat below is raised to the line
 * (assigned heat); the raises are taken from the consumption parts of the allocator flats not
 * raised, in proportion, round after round until none is below. In a building without allocator
 * flats they come out of the common remainder. What cannot be covered leaves the month unbalanced.
 */

/** The assigned heat per flat and the part it was taken from; null when the raises cannot be covered. */
export interface Minimum {
  assigned: number[];
  from: 'consumption' | 'common';
}

const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);

/** Applies the rule to `space` in place (donors' consumption or common remainder shrink). */
export function applyMinimum(kMin: number, flats: readonly SplitFlat[], space: Space): Minimum | null {
  const assigned = flats.map(() => 0);
  const hasAllocators = space.working.includes('allocator');
  const from = hasAllocators ? 'consumption' : 'common';
  if (!(kMin > 0)) return { assigned, from };
  const line = flats.map((f) => kMin * space.averagePerM2 * (f.area ?? 0));
  const own = (i: number) => space.base[i]! + space.consumption[i]! + space.heatMeter[i]! + assigned[i]!;
  const raised = flats.map(() => false);
  const eps = 1e-9 * Math.max(1, sum(line));
  for (;;) {
    const below = flats
      .map((_, i) => i)
      .filter((i) => space.working[i] !== null && !raised[i] && own(i) < line[i]! - eps);
    if (below.length === 0) return { assigned, from };
    const need = below.map((i) => line[i]! - own(i));
    const total = sum(need);
    const pool = hasAllocators ? space.consumption : space.commonRest;
    const donors = pool.map((x, i) => (hasAllocators ? !raised[i] && !below.includes(i) && x > 0 : x > 0));
    const available = sum(pool.filter((_, i) => donors[i]));
    if (total > available + eps) return null;
    const keep = available > 0 ? 1 - total / available : 1;
    pool.forEach((x, i) => {
      if (!donors[i]) return;
      pool[i] = x * keep;
      // The common remainder is inside the common part: it shrinks with it.
      if (!hasAllocators) space.common[i] = space.common[i]! - (x - pool[i]!);
    });
    below.forEach((i, k) => {
      raised[i] = true;
      assigned[i]! += need[k]!;
    });
  }
}
