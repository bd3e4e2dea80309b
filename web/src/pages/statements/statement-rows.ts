import type {
  FlatOccupancyStatement,
  NO_COMPARISON_REASONS,
  StatementFigure,
  StatementKind,
  StatementKindFigures,
  StatementMarker,
  StatementRow,
} from '@rodmenys/contract';

type Reason = (typeof NO_COMPARISON_REASONS)[number];

/** The occupant a row of the Statements table is for (a flat with a move in the month: one row each). */
export interface RowOccupant {
  OccupancyId: number;
  Name: string;
  From: string;
  Till: string;
  Days: number;
  /** Per kind, why the month before or last year is not shown (another occupant lived there then). */
  Missing: Partial<Record<StatementKind, { Previous: Reason | null; LastYear: Reason | null }>>;
}

/**
 * A row of the Statements table: a flat's figures, or one occupant's part of them (docs/occupancies.md).
 * An occupant's row has the flat's address and building average, and the occupant's account, days and
 * figures; the month before and last year only where they are the occupant's own.
 */
export type StatementTableRow = StatementRow & { Key: string; Occupant: RowOccupant | null };

const NO_FIGURE: StatementFigure = { Value: null, Partial: false, Incomplete: false, Sources: [] };

/**
 * An occupant's markers: estimated or incomplete by their own figure (high/low compare whole months only);
 * overdue and lateDeclaration as the flat's figure.
 */
function occupantMarkers(f: StatementFigure, flat: { overdue: boolean; late: boolean }): StatementMarker[] {
  const own: StatementMarker[] =
    f.Value === null ? (f.Incomplete ? ['incomplete'] : []) : f.Partial ? ['estimated'] : [];
  if (flat.overdue) own.push('overdue');
  if (flat.late) own.push('lateDeclaration');
  return own;
}

/** One occupant's row: the flat's row with the occupant's account, figures and days. */
function occupantRow(row: StatementRow, o: FlatOccupancyStatement): StatementTableRow {
  const missing: RowOccupant['Missing'] = {};
  const kinds = row.Kinds.map((k): StatementKindFigures => {
    const own = o.Kinds.find((x) => x.Kind === k.Kind);
    if (!own)
      return {
        ...k,
        Current: NO_FIGURE,
        Previous: NO_FIGURE,
        LastYear: NO_FIGURE,
        Markers: [],
        Overdue: [],
        LateDeclarations: [],
        HeatParts: null,
      };
    missing[k.Kind] = { Previous: own.PreviousMissing, LastYear: own.LastYearMissing };
    return {
      ...k,
      Current: own.Current,
      Previous: own.Previous ?? NO_FIGURE,
      LastYear: own.LastYear ?? NO_FIGURE,
      LastYearCorrected: own.LastYear ? k.LastYearCorrected : null,
      Units: own.Units,
      Qrad: own.Qrad,
      Markers: occupantMarkers(own.Current, {
        overdue: own.Overdue.length > 0,
        late: own.LateDeclarations.length > 0,
      }),
      Overdue: own.Overdue,
      LateDeclarations: own.LateDeclarations,
      HeatParts: own.HeatParts,
    };
  });
  return {
    ...row,
    ClientCode: o.ClientCode,
    Kinds: kinds,
    Key: `${row.FlatId}.${o.OccupancyId}`,
    Occupant: { OccupancyId: o.OccupancyId, Name: o.Name, From: o.From, Till: o.Till, Days: o.Days, Missing: missing },
  };
}

/**
 * The table's rows: one per flat, and for a flat with more than one occupant in the month one per
 * occupant instead (their parts add up to the flat's figures), in the flats' order.
 */
export function tableRows(
  rows: readonly StatementRow[],
  occupancies: readonly FlatOccupancyStatement[] = [],
): StatementTableRow[] {
  const byFlat = new Map<number, FlatOccupancyStatement[]>();
  for (const o of occupancies) byFlat.set(o.FlatId, [...(byFlat.get(o.FlatId) ?? []), o]);
  return rows.flatMap((r) => {
    const parts = byFlat.get(r.FlatId);
    return parts?.length ? parts.map((o) => occupantRow(r, o)) : [{ ...r, Key: String(r.FlatId), Occupant: null }];
  });
}

/** The flats of some rows, each once, in their order. */
export const flatIdsOf = (rows: readonly StatementRow[]) => [...new Set(rows.map((r) => r.FlatId))];
