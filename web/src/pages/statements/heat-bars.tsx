import { HEAT_BAR_PARTS, type StatementHeatBalance, type StatementHeatParts } from '@rodmenys/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SplitBar, type SplitPart } from '../../components/split-bar';
import { formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';

/*
 * The heat balance as pictures (docs/statements.md, "The heat balance as a picture"): the building's
 * input as one bar in its seven parts, and a flat's (or an occupant's) heat as one bar in its own
 * parts. Each bar is its own whole; a part has the same pattern and number in every bar.
 */

/** The building's input in its seven parts, every part listed (a part of 0 too); null when the month was not split. */
export function BalanceBar({ b, where }: { b: StatementHeatBalance; where?: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (b.Status !== 'split') return null;
  const parts: SplitPart[] = HEAT_BAR_PARTS.flatMap((p, i) =>
    p.Balance
      ? [{ key: p.Name, label: t(`statements.balanceParts.${p.Name}`), value: b[p.Balance] ?? 0, pattern: i + 1 }]
      : [],
  );
  const title = t('statements.balanceBar', {
    method: t(`statements.methodNames.${b.Method}`),
    from: b.ValidFrom,
    input: formatDecimal(b.InputKwh, language, 3),
  });
  return (
    <SplitBar
      title={where ? `${where}: ${title}` : title}
      parts={parts}
      unit="kWh"
      language={language}
      testId="balance-bar"
    />
  );
}

/** A flat's (or an occupant's) heat in its parts; the parts it has none of are left out. */
export function HeatPartsBar({ p, title }: { p: StatementHeatParts; title: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const parts: SplitPart[] = HEAT_BAR_PARTS.flatMap((x, i) =>
    p[x.Flat] !== 0
      ? [{ key: x.Name, label: t(`statements.flatPartNames.${x.Name}`), value: p[x.Flat], pattern: i + 1 }]
      : [],
  );
  return <SplitBar title={title} parts={parts} unit="kWh" language={language} testId="heat-parts-bar" />;
}

/** A flat's statement: the building's bar and the flat's beside it, and what each bar is. */
export function HeatBars({ b, p }: { b: StatementHeatBalance; p: StatementHeatParts | null }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (b.Status !== 'split') return null;
  const total = formatDecimal(p?.Total, language, 3);
  const share = p && b.InputKwh ? `${formatDecimal((p.Total / b.InputKwh) * 100, language, 1)} %` : null;
  return (
    <div className="heat-bars">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        {t(p ? 'statements.heatBarsNote' : 'statements.heatBarNote')}
      </Typography.Paragraph>
      <div className="heat-bars-pair">
        <BalanceBar b={b} />
        {p && (
          <HeatPartsBar
            p={p}
            title={share ? t('statements.flatBar', { total, share }) : t('statements.flatBarNoShare', { total })}
          />
        )}
      </div>
    </div>
  );
}
