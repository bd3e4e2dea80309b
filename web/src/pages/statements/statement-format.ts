import type {
  StatementFigure,
  StatementKind,
  StatementKindFigures,
  StatementMarker,
  StatementRow,
} from '@rodmenys/contract';
import type { TFunction } from 'i18next';

/** A flat's figures of one kind, if it has that kind. */
export const kindOf = (r: StatementRow, kind: StatementKind): StatementKindFigures | undefined =>
  r.Kinds.find((k) => k.Kind === kind);

export const MARKER_COLORS: Record<StatementMarker, string> = {
  estimated: 'orange',
  incomplete: 'red',
  high: 'volcano',
  low: 'blue',
};

/** A figure with 3 decimals in the UI language; a partial one marked with an asterisk, a missing one as a dash. */
export function formatFigure(f: StatementFigure, language: string, t: TFunction): string {
  if (f.Value === null) return f.Incomplete ? t('statements.missing') : '';
  const text = f.Value.toLocaleString(language, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  return f.Partial ? `${text}*` : text;
}

/** A number with 3 decimals in the UI language, '' when there is none. */
export const formatNumber = (v: number | null | undefined, language: string) =>
  v === null || v === undefined
    ? ''
    : v.toLocaleString(language, { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** A flat's address line: city, street and building number. */
export const addressOf = (r: StatementRow) =>
  [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');
