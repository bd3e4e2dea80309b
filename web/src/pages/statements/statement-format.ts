import type {
  StatementFigure,
  StatementKind,
  StatementKindFigures,
  StatementMarker,
  StatementRow,
  StatementUnit,
} from '@rodmenys/contract';
import type { TFunction } from 'i18next';

export { formatNumber, monthName } from '../../format';

/** A flat's figures of one kind, if it has that kind. */
export const kindOf = (r: StatementRow, kind: StatementKind): StatementKindFigures | undefined =>
  r.Kinds.find((k) => k.Kind === kind);

/** One colour per kind, dark enough for text contrast on white (the statement's charts, back office and occupant's). */
export const KIND_COLORS: Record<StatementKind, string> = {
  heating: '#b03a2e',
  hotWater: '#a04000',
  coldWater: '#1f618d',
};

/** The serial numbers of the devices past their due date behind a figure (docs/device-lifetime.md). */
export const overdueSerials = (k: Pick<StatementKindFigures, 'Overdue'>): string =>
  k.Overdue.map((d) => d.DeviceCode).join(', ');

/** A figure's overdue devices in words: `no. 123 (verification due 2026-03-15), …`. */
export const overdueDevicesText = (k: Pick<StatementKindFigures, 'Overdue'>, t: TFunction): string =>
  k.Overdue.map((d) =>
    t('statements.overdueDevice', {
      code: d.DeviceCode,
      due: d.DueDate,
      reason: t(`statements.overdueReason.${d.Reason}`),
    }),
  ).join(', ');

export const MARKER_COLORS: Record<StatementMarker, string> = {
  estimated: 'orange',
  incomplete: 'red',
  high: 'volcano',
  low: 'blue',
  overdue: 'purple',
  lateDeclaration: 'geekblue',
};

/** What a marker names besides its word: the overdue serials, the months of late declarations. */
export const markerDetail = (k: Pick<StatementKindFigures, 'Overdue' | 'LateDeclarations'>, m: StatementMarker) =>
  m === 'overdue' ? ` (${overdueSerials(k)})` : m === 'lateDeclaration' ? ` (${k.LateDeclarations.join(', ')})` : '';

/**
 * Decimals a figure is shown with, by its unit: whole kWh and allocator units (a flat's month is
 * hundreds), Qrad to one decimal, m³ to two (a flat's water is a few m³ a month).
 */
export const DIGITS: Record<StatementUnit | 'units', number> = { kWh: 0, units: 0, Qrad: 1, m3: 2 };

/** A figure in the UI language with the unit's decimals; a partial one marked with an asterisk, a missing one said so. */
export function formatFigure(f: StatementFigure, language: string, t: TFunction, digits = 3): string {
  if (f.Value === null) return f.Incomplete ? t('statements.missing') : '';
  const text = f.Value.toLocaleString(language, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return f.Partial ? `${text}*` : text;
}

/** A building's street and number ("Architektų g. 3"). */
export const buildingOf = (r: StatementRow) => [r.Street, r.Building].filter(Boolean).join(' ');

/** A flat's address line: city, street and building number. */
export const addressOf = (r: StatementRow) =>
  [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');

/** Whether any flat has a figure for the month, the month before or last year: else there is nothing to show. */
export const hasFigures = (rows: readonly StatementRow[]) =>
  rows.some((r) =>
    r.Kinds.some((k) => k.Current.Value !== null || k.Previous.Value !== null || k.LastYear.Value !== null),
  );
