import type { StatementRow } from '@rodmenys/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBalanceText, useParametersText } from './heat-notes';

/*
 * Above the flats of the Statements page: the heat balance of each building split by its heat method
 * in the month (docs/heat-method.md, "In the statements"), or why it was not split.
 */

/** One line per building of the rows that has a heat method in the month. */
export function BuildingBalances({ rows }: { rows: readonly StatementRow[] }) {
  const { t } = useTranslation();
  const balanceText = useBalanceText();
  const parametersText = useParametersText();
  const seen = new Set<number>();
  const lines: { id: number; text: string; parameters: string | null }[] = [];
  for (const r of rows) {
    if (seen.has(r.BuildingId)) continue;
    const b = r.Kinds.find((k) => k.Kind === 'heating')?.HeatBalance;
    if (!b) continue;
    seen.add(r.BuildingId);
    const where = [r.Street, r.Building].filter(Boolean).join(' ');
    const text =
      balanceText(b) ??
      t(b.Status === 'unbalanced' ? 'statements.method.heatMethodUnbalanced' : 'statements.method.incompleteBuilding');
    // The building's parameters behind the month (the flats' own are on each flat's statement).
    lines.push({ id: r.BuildingId, text: `${where}: ${text}`, parameters: parametersText(b, false) });
  }
  if (!lines.length) return null;
  return (
    <div data-testid="building-balances">
      {lines.map((l) => (
        <Typography.Paragraph key={l.id} style={{ marginBottom: 4 }}>
          {l.text}
          {l.parameters && (
            <>
              <br />
              <Typography.Text type="secondary">{l.parameters}</Typography.Text>
            </>
          )}
        </Typography.Paragraph>
      ))}
    </div>
  );
}
