// Frozen copy of server/src/services/statements/followers.ts at commit 56f68cb, for bench:statements only.
import type { StatementRow } from '@rodmenys/contract';
import type { Queryable } from '@rodmenys/server/db/db.js';

/** One building's new version, as publishing has just written it. */
export interface PublishedBuilding {
  publicationId: number;
  month: string;
  buildingId: number;
  version: number;
  publishedAt: string;
  flats: readonly StatementRow[];
}

/**
 * What follows a publication in the same transaction (docs/statements.md, "Publishing"): the
 * features built on the statements (the billing export and its receivers, the occupants'
 * deliveries) sit above them, so publishing does not import them; server/src/publication.ts
 * lists them and the route hands the list over.
 */
export interface PublicationFollower {
  /** Per building published. */
  building?: (tx: Queryable, published: PublishedBuilding) => Promise<void>;
  /**
   * Per building already published whose statements' figures are the same again: whether what this
   * follower froze with `previousPublicationId` would differ now (then the building gets a new version).
   */
  differs?: (
    tx: Queryable,
    building: { previousPublicationId: number; month: string; buildingId: number; flats: readonly StatementRow[] },
  ) => Promise<boolean>;
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
