// Deterministic randomness for the demo data: a seeded generator for the master
// data (drawn in order) and stateless hashes for readings (any reading can be
// recomputed alone, so a later top-up needs no saved generator state).

/** mulberry32: a tiny 32-bit seeded generator, good enough for fake data. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  weighted<T extends { weight: number }>(items: readonly T[]): T {
    let r = this.next() * items.reduce((sum, i) => sum + i.weight, 0);
    for (const item of items) {
      r -= item.weight;
      if (r < 0) return item;
    }
    return items[items.length - 1]!;
  }
}

/** Mixes two 32-bit integers into one (murmur3's finaliser over a combined key). */
export function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a of a string, for keys such as a device's serial number. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A hash as a number in [0, 1). */
export const unit = (h: number): number => h / 4294967296;
