/**
 * Shares a building heat meter's energy among flats in proportion to their Qrad
 * (docs/statements.md): kWh(flat) = E × Qrad(flat) / ΣQrad, rounded to 3 decimals
 * so that the shares add up to E rounded to 3 decimals exactly (largest remainder:
 * every share is floored to a thousandth, and the thousandths left over go to the
 * shares whose floors cut off the most). Null when ΣQrad is not positive.
 */
export function shareByQrad(energyKwh: number, qrads: readonly number[]): number[] | null {
  const sumQ = qrads.reduce((a, q) => a + q, 0);
  if (!(sumQ > 0) || qrads.some((q) => q < 0)) return null;
  const total = Math.round(energyKwh * 1000);
  const exact = qrads.map((q) => (total * q) / sumQ);
  const floors = exact.map((x) => Math.floor(x));
  let left = total - floors.reduce((a, f) => a + f, 0);
  const order = exact.map((x, i) => ({ i, rest: x - floors[i]! })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]! += 1;
    left--;
  }
  return floors.map((f) => f / 1000);
}
