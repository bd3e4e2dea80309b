/** The months a statement shows: M − 12 … M, as YYYY-MM. */
export function statementMonths(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: 13 }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - 12 + i, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

/** The month before a month (YYYY-MM). */
export const monthBefore = (month: string): string => statementMonths(month)[11]!;
