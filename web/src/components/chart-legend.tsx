import type { LegendPayload } from 'recharts';

/** The swatch's shape per legend type: the series' own marker, drawn in CSS. */
const SHAPE: Partial<Record<string, string>> = {
  circle: 'chart-legend-circle',
  diamond: 'chart-legend-diamond',
  triangle: 'chart-legend-triangle',
  line: 'chart-legend-line',
  plainline: 'chart-legend-line',
};

/**
 * A chart's legend as a list of the series' names, each after a swatch of its colour that a
 * screen reader skips: recharts' own legend names every icon "<series> legend icon", in English.
 * Use as `<Legend content={(p) => <ChartLegend payload={p.payload} />} />`.
 */
export function ChartLegend({ payload }: { payload?: ReadonlyArray<LegendPayload> }) {
  return (
    <ul className="chart-legend">
      {(payload ?? []).map((entry) => (
        <li key={String(entry.dataKey ?? entry.value)}>
          <span
            aria-hidden="true"
            className={`chart-legend-swatch ${SHAPE[entry.type ?? ''] ?? ''}`}
            style={{ background: entry.color }}
          />
          {entry.value}
        </li>
      ))}
    </ul>
  );
}
