import type { StatementHeatBalance, StatementHeatParts, StatementKindFigures } from '@rodmenys/contract';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';

/* A flat's heating by its building's heat method (docs/heat-method.md): the building's balance and the flat's parts. */

const BALANCE = [
  ['hotWater', 'HotWaterKwh'],
  ['circulation', 'CirculationKwh'],
  ['common', 'CommonKwh'],
  ['noDevice', 'NoDeviceKwh'],
  ['heatMeter', 'HeatMeterKwh'],
  ['base', 'BaseKwh'],
  ['consumption', 'ConsumptionKwh'],
] as const;
const FLAT = [
  ['consumption', 'Consumption'],
  ['base', 'Base'],
  ['common', 'Common'],
  ['noDevice', 'NoDevice'],
  ['heatMeter', 'HeatMeter'],
  ['assigned', 'Assigned'],
] as const;

/** The building's balance in one line ("input … kWh = hot water … + …"), or null when the month was not split. */
export function useBalanceText() {
  const { t } = useTranslation();
  const language = useLanguage();
  const kwh = (v: number | null) => (v === null ? t('statements.missing') : formatDecimal(v, language, 3));
  return (b: StatementHeatBalance) =>
    b.Status === 'split'
      ? t('statements.heatBalance', {
          method: b.Method,
          from: b.ValidFrom,
          input: kwh(b.InputKwh),
          parts: BALANCE.map(([name, field]) => `${t(`statements.balanceParts.${name}`)} ${kwh(b[field])}`).join(' + '),
        })
      : null;
}

/** A flat's (or an occupant's) parts in words: space heating and its parts, hot-water heat, circulation, total. */
export function heatPartsValues(p: StatementHeatParts, t: TFunction, language: string) {
  const kwh = (v: number) => formatDecimal(v, language, 3);
  return {
    space: kwh(p.Space),
    parts: FLAT.filter(([, field]) => p[field] !== 0)
      .map(([name, field]) => `${t(`statements.flatPartNames.${name}`)} ${kwh(p[field])}`)
      .join(', '),
    hot: kwh(p.HotWater),
    circ: kwh(p.Circulation),
    total: kwh(p.Total),
  };
}

/** The balance of the building and the flat's parts, under the statement's table. */
export function HeatNotes({ k }: { k: StatementKindFigures }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const balanceText = useBalanceText();
  const b = k.HeatBalance;
  if (!b) return null;
  const kwh = (v: number | null) => (v === null ? t('statements.missing') : formatDecimal(v, language, 3));
  const p = k.HeatParts;
  const lines = [k.KwhMethod ? t(`statements.method.${k.KwhMethod}`, { kwh: '' }) : null];
  lines.push(balanceText(b));
  if (b.HotWaterM3 !== null && b.HotWaterLossesM3 !== null)
    lines.push(t('statements.heatLosses', { v: kwh(b.HotWaterM3), losses: kwh(b.HotWaterLossesM3) }));
  if (p) lines.push(t('statements.flatParts', heatPartsValues(p, t, language)));
  return (
    <>
      {lines
        .filter((l): l is string => l !== null)
        .map((l) => (
          <Typography.Paragraph key={l} type="secondary" style={{ marginBottom: 4 }}>
            {l}
          </Typography.Paragraph>
        ))}
    </>
  );
}
