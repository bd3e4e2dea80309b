import type { HeatMethodVersion, HeatParameterName, HeatParameterValue, HeatSeason } from '@rodmenys/contract';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';

/*
 * A heat method's parameters in words (docs/heat-method.md): the version's on Master data, the ones
 * frozen with a statement, and a parameter that changed since a publication.
 */

/** The building's parameters, alike in a version and in those frozen with a statement. */
export type BuildingParameters = Pick<
  HeatMethodVersion,
  | 'KwhPerM3'
  | 'CirculationNorm'
  | 'HotWaterTemperature'
  | 'DistrictHeat'
  | 'Seasons'
  | 'CommonShare'
  | 'BaseShare'
  | 'MinimumShare'
>;
type Mode = NonNullable<HeatMethodVersion['HotWaterHeat']>;

/** The building's parameters as short phrases, those of the hot-water mode `mode` only. */
export function useParameterSummary() {
  const { t } = useTranslation();
  const language = useLanguage();
  const n = (v: number) => formatDecimal(v, language);
  const seasons = (s: readonly HeatSeason[]) =>
    s.length
      ? t('masterData.heatMethod.summary.seasons', {
          periods: s.map((x) => `${x.From} – ${x.To ?? '…'}`).join(', '),
        })
      : t('masterData.heatMethod.noSeason');
  return (mode: Mode, v: BuildingParameters): string[] => {
    const parts: string[] = [];
    if (mode !== 'formulaDE') parts.push(t('masterData.heatMethod.summary.q', { v: n(v.KwhPerM3) }));
    if (mode === 'norm') parts.push(t('masterData.heatMethod.summary.circulation', { v: n(v.CirculationNorm) }));
    if (mode === 'formulaDE')
      parts.push(
        t(
          v.DistrictHeat
            ? 'masterData.heatMethod.summary.temperatureDistrict'
            : 'masterData.heatMethod.summary.temperature',
          { v: n(v.HotWaterTemperature) },
        ),
      );
    parts.push(seasons(v.Seasons));
    parts.push(t('masterData.heatMethod.summary.common', { v: n(v.CommonShare * 100) }));
    parts.push(t('masterData.heatMethod.summary.base', { v: n(v.BaseShare * 100) }));
    parts.push(t('masterData.heatMethod.summary.minimum', { v: n(v.MinimumShare) }));
    return parts;
  };
}

/** One parameter's value in words ("25 %", "2026-10-15 – …", the plain rule for no method). */
export function useParameterValue() {
  const { t } = useTranslation();
  const language = useLanguage();
  const n = (v: number) => formatDecimal(v, language);
  return (name: HeatParameterName, v: HeatParameterValue): string => {
    if (v === null)
      return t(name === 'Method' ? 'masterData.heatMethod.modes.plainQrad' : 'masterData.heatMethod.byNorm');
    if (Array.isArray(v))
      return v.length ? v.map((x) => `${x.From} – ${x.To ?? '…'}`).join(', ') : t('masterData.heatMethod.noSeason');
    if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
    if (typeof v === 'string') return name === 'Method' ? t(`masterData.heatMethod.modes.${v}`) : v;
    if (name === 'CommonShare' || name === 'BaseShare') return `${n(v * 100)} %`;
    if (name === 'KwhPerM3') return `${n(v)} kWh/m³`;
    if (name === 'CirculationNorm' || name === 'CirculationClass') return `${n(v)} kWh`;
    if (name === 'HotWaterTemperature') return `${n(v)} °C`;
    return n(v);
  };
}
