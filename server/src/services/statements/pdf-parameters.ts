import type { StatementHeatBalance } from '@rodmenys/contract';
import { fmtPlain, type Lang } from './pdf-texts.js';

/*
 * The statements PDF's line on the heat method's parameters that split the month (docs/heat-method.md,
 * "Publication"): frozen with a publication, so a published statement names those that produced it.
 * The same words as the web's statement.
 */

const P = {
  lt: {
    line: (from: string, parts: string[]) => `Versijos nuo ${from} parametrai: ${parts.join(' · ')}.`,
    q: (v: string) => `q ${v} kWh/m³`,
    circulation: (v: string) => `cirkuliacija ${v} kWh butui`,
    temperature: (v: string, district: boolean) => `t_w ${v} °C${district ? ', centralizuota šiluma' : ''}`,
    seasons: (periods: string) => `sezonas ${periods}`,
    noSeason: 'šildymo sezono nėra',
    common: (v: string) => `bendrosios ${v} %`,
    base: (v: string) => `bazinė ${v} %`,
    minimum: (v: string) => `k_min ${v}`,
    flat: (factor: string) => `šis butas: padėties koeficientas ${factor}`,
    flatCirculation: (v: string | null) => `cirkuliacija ${v === null ? 'pagal normą' : `${v} kWh`}`,
  },
  en: {
    line: (from: string, parts: string[]) => `Parameters of the version from ${from}: ${parts.join(' · ')}.`,
    q: (v: string) => `q ${v} kWh/m³`,
    circulation: (v: string) => `circulation ${v} kWh per flat`,
    temperature: (v: string, district: boolean) => `t_w ${v} °C${district ? ', district heat' : ''}`,
    seasons: (periods: string) => `season ${periods}`,
    noSeason: 'no heating season',
    common: (v: string) => `common ${v} %`,
    base: (v: string) => `base ${v} %`,
    minimum: (v: string) => `k_min ${v}`,
    flat: (factor: string) => `this flat: position factor ${factor}`,
    flatCirculation: (v: string | null) => `circulation ${v === null ? 'by the norm' : `${v} kWh`}`,
  },
};

/** The parameters behind a flat's month in one line; null when not known (a publication made before they were frozen). */
export function parametersNote(b: StatementHeatBalance, lang: Lang): string | null {
  const p = b.Parameters;
  if (!p) return null;
  const t = P[lang];
  const n = (v: number) => fmtPlain(v, lang);
  const parts: string[] = [];
  if (b.Method !== 'formulaDE') parts.push(t.q(n(p.KwhPerM3)));
  if (b.Method === 'norm') parts.push(t.circulation(n(p.CirculationNorm)));
  if (b.Method === 'formulaDE') parts.push(t.temperature(n(p.HotWaterTemperature), p.DistrictHeat));
  parts.push(p.Seasons.length ? t.seasons(p.Seasons.map((s) => `${s.From} – ${s.To ?? '…'}`).join(', ')) : t.noSeason);
  parts.push(t.common(n(p.CommonShare * 100)), t.base(n(p.BaseShare * 100)), t.minimum(n(p.MinimumShare)));
  const own = [t.flat(n(p.PositionFactor))];
  if (b.Method === 'norm') own.push(t.flatCirculation(p.CirculationClass === null ? null : n(p.CirculationClass)));
  parts.push(own.join(', '));
  return t.line(b.ValidFrom, parts);
}
