import type { HotWaterHeatMode, StatementHeatBalance, StatementKindFigures } from '@rodmenys/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';
import { useParameterSummary, useParameterValue } from '../master-data/heat-method-summary';
import { HeatBars } from './heat-bars';

/* A flat's heating by its building's heat method (docs/heat-method.md): the notes beside the building's balance and the flat's parts. */

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

/**
 * Under the statement's table: how kWh were found, the building's balance and the flat's parts as
 * bars (heat-bars.tsx), the parameters behind them and the hot water's losses.
 */
export function HeatNotes({ k }: { k: StatementKindFigures }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const parametersText = useParametersText();
  const b = k.HeatBalance;
  if (!b) return null;
  const kwh = (v: number | null) => (v === null ? t('statements.missing') : formatDecimal(v, language, 3));
  const note = (l: string) => (
    <Typography.Paragraph key={l} type="secondary" style={{ marginBottom: 4 }}>
      {l}
    </Typography.Paragraph>
  );
  const parameters = parametersText(b, true);
  return (
    <>
      {k.KwhMethod && note(t(`statements.method.${k.KwhMethod}`, { kwh: '' }))}
      <HeatBars b={b} p={k.HeatParts} />
      {parameters && note(parameters)}
      {b.HotWaterM3 !== null &&
        b.HotWaterLossesM3 !== null &&
        note(t('statements.heatLosses', { v: kwh(b.HotWaterM3), losses: kwh(b.HotWaterLossesM3) }))}
    </>
  );
}
