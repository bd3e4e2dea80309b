import type {
  HotWaterHeatMode,
  StatementHeatBalance,
  StatementHeatParts,
  StatementKindFigures,
} from '@rodmenys/contract';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';
import { useParameterSummary, useParameterValue } from '../master-data/heat-method-summary';

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
          method: t(`statements.methodNames.${b.Method}`),
          from: b.ValidFrom,
          input: kwh(b.InputKwh),
          parts: BALANCE.map(([name, field]) => `${t(`statements.balanceParts.${name}`)} ${kwh(b[field])}`).join(' + '),
        })
      : null;
}

/**
 * The parameters that split the month (frozen with a publication: docs/heat-method.md, "Publication")
 * in one line, with the flat's own when `flat`; null when not known (a publication made before they were
 * frozen with it).
 */
export function useParametersText() {
  const { t } = useTranslation();
  const summary = useParameterSummary();
  const value = useParameterValue();
  return (b: StatementHeatBalance, flat: boolean) => {
    const p = b.Parameters;
    if (!p) return null;
    const parts = summary(b.Method as HotWaterHeatMode, p);
    if (flat) {
      const own = [t('statements.heatParametersFlat', { factor: value('PositionFactor', p.PositionFactor) })];
      if (b.Method === 'norm')
        own.push(
          t('statements.heatParametersCirculation', {
            circulation: value('CirculationClass', p.CirculationClass),
          }),
        );
      parts.push(own.join(', '));
    }
    return t('statements.heatParameters', { from: b.ValidFrom, parameters: parts.join(' · ') });
  };
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
  const parametersText = useParametersText();
  const b = k.HeatBalance;
  if (!b) return null;
  const kwh = (v: number | null) => (v === null ? t('statements.missing') : formatDecimal(v, language, 3));
  const p = k.HeatParts;
  const lines = [k.KwhMethod ? t(`statements.method.${k.KwhMethod}`, { kwh: '' }) : null];
  lines.push(balanceText(b));
  lines.push(parametersText(b, true));
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
