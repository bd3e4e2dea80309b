import type { listUnmatchedMeters, ResponseOf, UnmatchedMeter } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { paged } from '../paging.js';

const PAGE_SIZE = 20;

/** One page of the unmatched meters inbox, the most recently heard first. */
export async function listUnmatched(
  db: Queryable,
  input: { page?: number; pageSize?: number; meterId?: string },
): Promise<ResponseOf<typeof listUnmatchedMeters>> {
  const pageSize = input.pageSize ?? PAGE_SIZE;
  const page = input.page ?? 1;
  const { rows } = await db.query<UnmatchedMeter>(
    `SELECT meter_id AS "MeterId", driver AS "Driver", iso(first_seen) AS "FirstSeen", iso(last_seen) AS "LastSeen",
              telegram_count AS "Count", last_json AS "LastJson"
         FROM unmatched_meter WHERE ($3::text IS NULL OR meter_id = $3)
        ORDER BY last_seen DESC, meter_id LIMIT $1 OFFSET $2`,
    [pageSize, (page - 1) * pageSize, input.meterId ?? null],
  );
  const { rows: count } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM unmatched_meter WHERE ($1::text IS NULL OR meter_id = $1)',
    [input.meterId ?? null],
  );
  return paged(rows, count[0]!.n, page, pageSize);
}
