import type { StatementRow } from '@rodmenys/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BalanceBar } from './heat-bars';
import { useParametersText } from './heat-notes';

/*
 * Above the flats of the Statements page: the heat balance of each building split by its heat method
 * in the month as a bar of its parts (docs/heat-method.md, "In the statements"), or why it was not split.
 */

/** One bar (or one line) per building of the rows that has a heat method in the month. */
export function BuildingBalances({ rows }: { rows: readonly StatementRow[] }) {
  const { t } = useTranslation();
  const parametersText = useParametersText();
  const seen = new Set<number>();
  const buildings: { id: number; where: string; b: NonNullable<StatementRow['Kinds'][number]['HeatBalance']> }[] = [];
  for (const r of rows) {
    if (seen.has(r.BuildingId)) continue;
    const b = r.Kinds.find((k) => k.Kind === 'heating')?.HeatBalance;
    if (!b) continue;
    seen.add(r.BuildingId);
    buildings.push({ id: r.BuildingId, where: [r.Street, r.Building].filter(Boolean).join(' '), b });
  }
  if (!buildings.length) return null;
  return (
    <div data-testid="building-balances" className="building-balances">
      {buildings.map(({ id, where, b }) => {
        // The building's parameters behind the month (the flats' own are on each flat's statement).
        const parameters = parametersText(b, false);
        return (
          <div key={id} style={{ marginBottom: 8 }}>
            {b.Status === 'split' ? (
              <BalanceBar b={b} where={where} />
            ) : (
              <Typography.Paragraph style={{ marginBottom: 4 }}>
                {`${where}: ${t(b.Status === 'unbalanced' ? 'statements.method.heatMethodUnbalanced' : 'statements.method.incompleteBuilding')}`}
              </Typography.Paragraph>
            )}
            {parameters && (
              <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
                {parameters}
              </Typography.Paragraph>
            )}
          </div>
        );
      })}
    </div>
  );
}
