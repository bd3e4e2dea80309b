import type { OccupancyStatement, StatementRow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

/** One building's new version, as publishing has just written it. */
export interface PublishedBuilding {
  publicationId: number;
  month: string;
  buildingId: number;
  version: number;
  publishedAt: string;
  flats: readonly StatementRow[];
}

/** A building already published whose statements' figures are the same again. */
export interface UnchangedBuilding {
  previousPublicationId: number;
  month: string;
  buildingId: number;
  flats: readonly StatementRow[];
}

/**
 * What publishing has computed for every building at once: the occupants' splits of the flats with a
 * move in the month (as splitMoves answers them), so that a follower need not split them again.
 */
export interface PublicationContext {
  splits: ReadonlyMap<number, OccupancyStatement[]>;
  /**
   * The statements' rows (without History) and occupants' splits frozen with each building's previous version,
   * by its publication's id, as publishing read them to compare the figures: a follower's check of an unchanged
   * building may compare with them instead of computing again what they hold.
   */
  previous?: ReadonlyMap<number, FrozenStatements>;
}

/** A version's snapshots as read back: each flat's row and the splits of its flats with a move. */
export interface FrozenStatements {
  rows: StatementRow[];
  splits: ReadonlyMap<number, OccupancyStatement[]>;
}

/**
 * What follows a publication in the same transaction (docs/statements.md, "Publishing"): the
 * features built on the statements (the billing export and its receivers, the occupants'
 * deliveries) sit above them, so publishing does not import them; server/src/publication.ts
 * lists them and the route hands the list over. Each step takes every building at once (a few
 * queries for the whole month, not a few per building).
 */
export interface PublicationFollower {
  /** With every building published (their new versions). */
  buildings?: (tx: Queryable, published: readonly PublishedBuilding[], context: PublicationContext) => Promise<void>;
  /**
   * Of the buildings already published whose statements' figures are the same again, those whose state
   * this follower froze with their previous version would differ now (they get a new version).
   */
  differs?: (
    tx: Queryable,
    buildings: readonly UnchangedBuilding[],
    context: PublicationContext,
  ) => Promise<ReadonlySet<number>>;
  /**
   * Once per publication, with every building published (none when nothing changed). `figuresChanged`
   * is false for a version made only because a follower's frozen state differed (`differs`): its
   * statements read as before, so nothing is owed to those who read them.
   */
  published?: (
    tx: Queryable,
    month: string,
    buildings: readonly { buildingId: number; version: number; publishedAt: string; figuresChanged: boolean }[],
  ) => Promise<void>;
}
