import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../db/db.js';

export interface SilenceCount {
  silent: number;
  opened: number;
  resolved: number;
}

/** What is checked for silence: collector keys (docs/collectors.md) or LoRaWAN connections (docs/lorawan.md). */
export interface SilentSubjects {
  rule: 'COLLECTOR_SILENT' | 'LNS_SILENT';
  /** The anomaly's column naming the subject. */
  column: 'collector_id' | 'lns_connection_id';
  /** The evidence's key of the subject's name. */
  nameKey: 'collector' | 'connection';
  /** SQL: the live subjects as (id, name, created_at, last_contact); `$1` is now. */
  subjects: string;
  /** SQL: the buildings or streets each serves as (subject_id, location_id). */
  locations: string;
}

/**
 * One anomaly per silent subject (a silent collector, a silent LoRaWAN connection): a subject
 * with buildings that sent nothing for longer than `limitMinutes` (counted from its creation
 * when it never did) has one, on its first building by address, naming it, all its buildings,
 * its last contact and the limit; each run refreshes it, and resolves it once the subject is
 * heard again, gone from `subjects` or without buildings.
 */
export async function keepSilenceAnomalies(
  tx: Queryable,
  s: SilentSubjects,
  now: Date,
  limitMinutes: number,
): Promise<SilenceCount> {
  const { rows } = await tx.query<SilenceCount>(
    `WITH buildings AS (
       SELECT sl.subject_id, b.id, address_label(b) AS label
         FROM (${s.locations}) sl
         JOIN location b ON b.path && ARRAY[sl.location_id] AND b.level = ${LOCATION_LEVEL.building}
     ), silent AS (
       SELECT x.id, x.name, x.last_contact,
              (SELECT b.id FROM buildings b WHERE b.subject_id = x.id ORDER BY b.label, b.id LIMIT 1) AS building_id,
              (SELECT jsonb_agg(DISTINCT b.label) FROM buildings b WHERE b.subject_id = x.id) AS labels
         FROM (${s.subjects}) x
        WHERE coalesce(x.last_contact, x.created_at) < $1::timestamptz - make_interval(mins => $2::int)
     ), found AS (
       SELECT s.id AS subject_id, s.building_id,
              jsonb_build_object('${s.nameKey}', s.name, 'buildings', s.labels, 'lastContact', iso(s.last_contact),
                                 'limitMinutes', $2::int) AS evidence
         FROM silent s WHERE s.building_id IS NOT NULL
     ), refreshed AS (
       UPDATE anomaly a SET evidence = f.evidence, last_seen_at = $1::timestamptz, building_id = f.building_id
         FROM found f
        WHERE a.rule = '${s.rule}' AND a.state <> 'resolved' AND a.${s.column} = f.subject_id
       RETURNING a.id
     ), opened AS (
       INSERT INTO anomaly (rule, building_id, ${s.column}, evidence, opened_at, last_seen_at)
       SELECT '${s.rule}', f.building_id, f.subject_id, f.evidence, $1::timestamptz, $1::timestamptz
         FROM found f
        WHERE NOT EXISTS (SELECT FROM anomaly a WHERE a.rule = '${s.rule}' AND a.state <> 'resolved'
                            AND a.${s.column} = f.subject_id)
        ORDER BY f.subject_id
       ON CONFLICT DO NOTHING
       RETURNING id
     ), resolved AS (
       UPDATE anomaly a SET state = 'resolved', resolved_at = $1::timestamptz
        WHERE a.rule = '${s.rule}' AND a.state <> 'resolved'
          AND NOT EXISTS (SELECT FROM found f WHERE f.subject_id = a.${s.column})
       RETURNING a.id
     )
     SELECT (SELECT count(*) FROM found)::int AS silent, (SELECT count(*) FROM opened)::int AS opened,
            (SELECT count(*) FROM resolved)::int AS resolved`,
    [now, limitMinutes],
  );
  return rows[0]!;
}
