import { DEVICE_TYPE, LOCATION_LEVEL, type RuleCode } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { batteryEndSql, dueDateSql, dueReasonSql, verificationDueSql } from '../lifetime/device-dates.js';
import { type DqSettings, loadSettings } from '../settings.js';
import { buildingIdOf } from '../sql.js';

/**
 * The validation rules (docs/data-quality.md), each a query yielding findings
 * (rule, building, device, month, evidence). Parameters: $1 the devices to look
 * at (null = all), $2 now, $3 the settings (jsonb), $4 the last completed month.
 * Every query starts from `dev`: devices in service in the set, with their
 * building (location.path[6]), type and status summary. Time arithmetic happens
 * in the session's zone, the provider's.
 */
const DEV = `dev AS (
  SELECT d.id, d.device_type_id AS type_id, d.installed_at, ${buildingIdOf('l')} AS building_id, l.path, d.dev_eui,
         ds.last_seen, ds.flags,
         extract(month FROM $2::timestamptz)::int = ANY (
           SELECT jsonb_array_elements_text($3::jsonb -> 'heatingSeasonMonths')::int) AS in_season
    FROM device d JOIN location l ON l.id = d.location_id
    LEFT JOIN device_status ds ON ds.device_id = d.id
   WHERE ($1::int[] IS NULL OR d.id = ANY ($1::int[]))
     AND coalesce(d.removed_at, 'infinity') > $2::timestamptz
     AND coalesce(d.installed_at, '-infinity') <= $2::timestamptz
     AND l.level >= ${LOCATION_LEVEL.building}
)`;

const CURRENT = "'0001-01-01'::date";

/**
 * The latest reading of `dev` with `ts op till` and not before `from` (SQL
 * expressions), as a LATERAL subquery yielding (ts, value). Readings are
 * partitioned by month: a bare "latest before" probe descends every partition's
 * index (a Merge Append over all months). The same probe bounded to the 31 days
 * before `till` first touches one or two partitions (pruned at run time), and
 * is the answer whenever the device read in that month; only otherwise does the
 * unbounded probe run (UNION ALL under LIMIT 1 stops at the first row).
 */
const latestReading = (alias: string, op: '<' | '<=', till: string, from: string) => `(
      (SELECT ${alias}.ts, ${alias}.value FROM reading ${alias}
        WHERE ${alias}.device_id = dev.id AND ${alias}.ts ${op} ${till} AND ${alias}.ts >= ${from}
          AND ${alias}.ts > ${till} - interval '31 days'
        ORDER BY ${alias}.ts DESC LIMIT 1)
      UNION ALL
      (SELECT ${alias}.ts, ${alias}.value FROM reading ${alias}
        WHERE ${alias}.device_id = dev.id AND ${alias}.ts ${op} ${till} AND ${alias}.ts >= ${from}
        ORDER BY ${alias}.ts DESC LIMIT 1)
      LIMIT 1)`;

/**
 * The status flags that open METER_STATUS (docs/data-quality.md), each matched at the start of a
 * flag: wmbusmeters' words (LEAK, LEAKAGE…, BURST, BACKFLOW, BACK_FLOW, REVERSE…, DRY, TAMPER…,
 * SABOTAGE…, FRAUD, SEAL_BROKEN, POWER_LOW, PERMANENT_ERROR, TEMPORARY_ERROR, ERROR_FLAGS_…) and the
 * LoRaWAN decoders' alarms, which use the same words for the same conditions and add LOW_BATTERY,
 * LOW_TEMPERATURE and ERROR_FLAGS (docs/lorawan.md, "Alarms").
 */
export const METER_STATUS_FLAGS =
  '^(LEAK|BURST|BACKFLOW|BACK_FLOW|REVERSE|DRY|TAMPER|SABOTAGE|FRAUD|SEAL_BROKEN|POWER_LOW|LOW_BATTERY|BATTERY|' +
  'PERMANENT_ERROR|TEMPORARY_ERROR|ERROR_FLAGS|LOW_TEMPERATURE)';

/** Rules about a device's present state and its recent readings. */
const DEVICE_RULES: Partial<Record<RuleCode, string>> = {
  // No reading for N days (per type); allocators are exempt outside the heating season, and so are
  // the meters of a silent collector.
  SILENT: `SELECT 'SILENT' AS rule, dev.building_id, dev.id AS device_id, ${CURRENT} AS month,
      jsonb_build_object('lastSeen', iso(dev.last_seen), 'limitDays', lim.days) AS evidence
    FROM dev CROSS JOIN LATERAL (SELECT ($3::jsonb -> 'silent.days' ->> dev.type_id::text)::int AS days) lim
   WHERE lim.days IS NOT NULL AND (dev.type_id <> ${DEVICE_TYPE.allocator} OR dev.in_season)
     AND coalesce(dev.last_seen, '-infinity') < $2::timestamptz - make_interval(days => lim.days)
     AND coalesce(dev.installed_at, '-infinity') < $2::timestamptz - make_interval(days => lim.days)
     -- A silent collector's meters: their silence is its anomaly (services/collectors/silence.ts).
     AND NOT EXISTS (SELECT FROM anomaly ca JOIN collector_location cl ON cl.collector_id = ca.collector_id
                      WHERE ca.rule = 'COLLECTOR_SILENT' AND ca.state <> 'resolved' AND cl.location_id = ANY (dev.path))
     -- A silent LoRaWAN connection's meters (those with a DevEUI in its buildings): theirs is its anomaly
     -- (services/lorawan/silence.ts); the building's other meters are judged on their own.
     AND NOT (dev.dev_eui IS NOT NULL AND EXISTS (
           SELECT FROM anomaly la JOIN lns_connection_location ll ON ll.connection_id = la.lns_connection_id
            WHERE la.rule = 'LNS_SILENT' AND la.state <> 'resolved' AND ll.location_id = ANY (dev.path)))`,
  // Past its verification due date or battery end (docs/device-lifetime.md): one anomaly per device
  // while it stays in service unverified; replaced, re-verified or removed, it resolves itself.
  DEVICE_OVERDUE: `SELECT 'DEVICE_OVERDUE', dev.building_id, dev.id, ${CURRENT},
      jsonb_build_object('dueDate', to_char(x.due, 'YYYY-MM-DD'), 'reason', x.reason)
    FROM dev JOIN device d ON d.id = dev.id JOIN location l ON l.id = d.location_id
    CROSS JOIN LATERAL (SELECT ${verificationDueSql('d', 'l')} AS v, ${batteryEndSql('d')} AS b) y
    CROSS JOIN LATERAL (SELECT ${dueDateSql('y.v', 'y.b')} AS due, ${dueReasonSql('y.v', 'y.b')} AS reason) x
   WHERE x.due < $2::timestamptz::date`,
  // Status flags of the latest telegram or uplink (METER_STATUS_FLAGS).
  METER_STATUS: `SELECT 'METER_STATUS', dev.building_id, dev.id, ${CURRENT},
      jsonb_build_object('flags', to_jsonb(f.alarms))
    FROM dev CROSS JOIN LATERAL (
      SELECT array_agg(x ORDER BY x) AS alarms FROM unnest(dev.flags) x
       WHERE x ~ '${METER_STATUS_FLAGS}') f
   WHERE f.alarms IS NOT NULL`,
  // The same value for N days (per type) while the device keeps reporting; heat only in the heating season.
  ZERO_CONSUMPTION: `SELECT 'ZERO_CONSUMPTION', dev.building_id, dev.id, ${CURRENT},
      jsonb_build_object('since', iso(old.ts), 'value', old.value, 'limitDays', lim.days)
    FROM zero_dev dev CROSS JOIN LATERAL (SELECT ($3::jsonb -> 'zero.days' ->> dev.type_id::text)::int AS days) lim
    JOIN LATERAL ${latestReading('r', '<=', '($2::timestamptz - make_interval(days => lim.days))', "coalesce(dev.installed_at, '-infinity')")} old ON true
    JOIN LATERAL ${latestReading('r', '<=', '$2::timestamptz', "'-infinity'")} cur ON true
   WHERE lim.days IS NOT NULL AND (dev.type_id NOT IN (${DEVICE_TYPE.allocator}, ${DEVICE_TYPE.heatMeter}) OR dev.in_season)
     AND cur.ts > old.ts AND cur.value = old.value`,
};

/**
 * Rules over the readings of the last `window.days` (and the one before):
 * sentinel values, then, on the series without them, each reading against its
 * neighbours. A device's several hits of one rule are one finding (the latest,
 * with a count).
 */
const WINDOW_START = "($2::timestamptz - make_interval(days => ($3::jsonb ->> 'window.days')::int))";
const SENTINEL = "r.value = ANY (SELECT jsonb_array_elements_text($3::jsonb -> 'sentinel.values')::numeric)";

/**
 * The readings the series rules look at. The full run: every reading of the window and the one
 * before it (`recent` = in the window). The incremental run after a batch: each device's latest
 * four readings of the last 31 days (one or two month partitions), `recent` the latest two: the
 * new reading, and the one before it, which now has a next one to be judged against.
 */
const SERIES_FULL = `series AS (
  SELECT dev.id, dev.building_id, r.ts, r.value, ${SENTINEL} AS sentinel, r.ts >= ${WINDOW_START} AS recent
    FROM dev CROSS JOIN LATERAL (
      (SELECT * FROM ${latestReading('r0', '<', WINDOW_START, "coalesce(dev.installed_at, '-infinity')")} r0)
      UNION ALL
      (SELECT r1.ts, r1.value FROM reading r1
        WHERE r1.device_id = dev.id AND r1.ts >= ${WINDOW_START}
          AND r1.ts <= $2::timestamptz AND r1.ts >= coalesce(dev.installed_at, '-infinity'))) r
`;
const SERIES_INCREMENTAL = `series AS (
  SELECT dev.id, dev.building_id, r.ts, r.value, ${SENTINEL} AS sentinel, r.n <= 2 AS recent
    FROM dev CROSS JOIN LATERAL (
      SELECT x.ts, x.value, row_number() OVER (ORDER BY x.ts DESC) AS n FROM (
        SELECT r1.ts, r1.value FROM reading r1
         WHERE r1.device_id = dev.id AND r1.ts <= $2::timestamptz AND r1.ts > $2::timestamptz - interval '31 days'
           AND r1.ts >= coalesce(dev.installed_at, '-infinity')
         ORDER BY r1.ts DESC LIMIT 4) x) r
`;
const SERIES_REST = `), clean AS (
  SELECT s.id, s.building_id, s.ts, s.value, s.recent,
         lag(s.value) OVER w AS a, lag(s.ts) OVER w AS a_ts, lag(s.value, 2) OVER w AS a2,
         lead(s.value) OVER w AS c, lead(s.ts) OVER w AS c_ts
    FROM series s WHERE NOT s.sentinel
  WINDOW w AS (PARTITION BY s.id ORDER BY s.ts)
), classified AS (
  SELECT clean.*,
         CASE
           WHEN value > a AND c IS NOT NULL AND c < value AND c >= a THEN 'SPIKE'
           WHEN value < a AND c IS NOT NULL AND c >= a THEN 'WRONG_READING'
           WHEN value < a AND value <= a * ($3::jsonb ->> 'negative.resetFraction')::numeric
                AND (c IS NULL OR c >= value) THEN 'COUNTER_RESET'
           -- The fall right after a spike is the spike's, not a negative consumption.
           WHEN value < a AND NOT (a2 IS NOT NULL AND a > a2 AND value >= a2) THEN 'NEGATIVE'
         END AS rule
    FROM clean
), hits AS (
  SELECT DISTINCT ON (id, rule) rule, building_id, id AS device_id, ${CURRENT} AS month,
         jsonb_build_object('previous', jsonb_build_object('time', iso(a_ts), 'value', a),
                            'reading', jsonb_build_object('time', iso(ts), 'value', value),
                            'next', CASE WHEN c_ts IS NOT NULL THEN jsonb_build_object('time', iso(c_ts), 'value', c) END,
                            'count', count(*) OVER (PARTITION BY id, rule)) AS evidence
    FROM classified WHERE rule IS NOT NULL AND recent
   ORDER BY id, rule, ts DESC
), sentinels AS (
  SELECT DISTINCT ON (id) 'SENTINEL' AS rule, building_id, id AS device_id, ${CURRENT} AS month,
         jsonb_build_object('reading', jsonb_build_object('time', iso(ts), 'value', value),
                            'count', count(*) OVER (PARTITION BY id)) AS evidence
    FROM series WHERE sentinel AND recent
   ORDER BY id, ts DESC
)`;
/**
 * The devices ZERO_CONSUMPTION looks at. The incremental run leaves out the devices whose two latest
 * readings differ: a counter that just moved has not stood still since N days ago (its reading then
 * is at or before the one before the latest). The full run looks at every device.
 */
const ZERO_DEV_FULL = 'zero_dev AS (SELECT * FROM dev)';
const ZERO_DEV_INCREMENTAL = `zero_dev AS (
  SELECT * FROM dev WHERE dev.id NOT IN (
    SELECT id FROM series WHERE recent AND NOT sentinel GROUP BY id HAVING count(*) = 2 AND min(value) <> max(value))
)`;
const SERIES_RULES = ['SPIKE', 'WRONG_READING', 'COUNTER_RESET', 'NEGATIVE', 'SENTINEL'] as const;

/** The last completed month's consumption against the device's own history (month ends, none estimated). */
const HIGH_LOW = `SELECT CASE WHEN x.cons > x.ref * ($3::jsonb ->> 'highLow.high')::numeric THEN 'HIGH_CONSUMPTION'
                      ELSE 'LOW_CONSUMPTION' END, x.building_id, x.id, $4::date,
      jsonb_build_object('consumption', x.cons, 'reference', x.ref, 'lastYear', x.last_year, 'average3', x.avg3,
                         'ratio', round(x.cons / x.ref, 3))
    FROM (
      SELECT dev.id, dev.building_id, m0.value - m1.value AS cons, ly.cons AS last_year, a3.avg3,
             CASE WHEN dev.type_id IN (${DEVICE_TYPE.allocator}, ${DEVICE_TYPE.heatMeter}, ${DEVICE_TYPE.buildingHeatMeter}) THEN ly.cons ELSE coalesce(ly.cons, a3.avg3) END AS ref
        FROM dev
        JOIN month_end m0 ON m0.device_id = dev.id AND m0.month = $4::date AND m0.source <> 'estimated'
        JOIN month_end m1 ON m1.device_id = dev.id AND m1.month = ($4::date - interval '1 month')::date
                         AND m1.source <> 'estimated'
        LEFT JOIN LATERAL (
          SELECT a.value - b.value AS cons FROM month_end a JOIN month_end b ON b.device_id = a.device_id
           WHERE a.device_id = dev.id AND a.month = ($4::date - interval '12 months')::date
             AND b.month = ($4::date - interval '13 months')::date) ly ON true
        LEFT JOIN LATERAL (
          SELECT (a.value - b.value) / 3 AS avg3 FROM month_end a JOIN month_end b ON b.device_id = a.device_id
           WHERE a.device_id = dev.id AND a.month = ($4::date - interval '1 month')::date
             AND b.month = ($4::date - interval '4 months')::date) a3 ON true
    ) x
   WHERE x.ref > 0 AND x.cons >= 0
     AND (x.cons > x.ref * ($3::jsonb ->> 'highLow.high')::numeric OR x.cons < x.ref * ($3::jsonb ->> 'highLow.low')::numeric)`;

/** Buildings with a building heat meter: its month's energy against the sum of the flat heat meters. */
const BUILDING_BALANCE = `SELECT 'BUILDING_BALANCE', b.building_id, b.id, $4::date,
      jsonb_build_object('building', b.cons, 'flats', f.cons, 'flatMeters', f.n,
                         'share', round(abs(f.cons - b.cons) / b.cons, 3))
    FROM (
      SELECT dev.id, dev.building_id, m0.value - m1.value AS cons
        FROM dev
        JOIN month_end m0 ON m0.device_id = dev.id AND m0.month = $4::date
        JOIN month_end m1 ON m1.device_id = dev.id AND m1.month = ($4::date - interval '1 month')::date
       WHERE dev.type_id = ${DEVICE_TYPE.buildingHeatMeter}
         -- The building's input meter only, not its hot-water heat meter (docs/heat-method.md, "Devices").
         AND NOT EXISTS (SELECT FROM device r WHERE r.id = dev.id AND r.role IS NOT NULL)
    ) b
    JOIN LATERAL (
      SELECT sum(m0.value - m1.value) AS cons, count(*)::int AS n
        FROM device d JOIN location l ON l.id = d.location_id
        JOIN month_end m0 ON m0.device_id = d.id AND m0.month = $4::date
        JOIN month_end m1 ON m1.device_id = d.id AND m1.month = ($4::date - interval '1 month')::date
       WHERE d.device_type_id = ${DEVICE_TYPE.heatMeter} AND ${buildingIdOf('l')} = b.building_id) f ON f.n > 0
   WHERE b.cons > 0 AND abs(f.cons - b.cons) / b.cons > ($3::jsonb ->> 'balance.tolerance')::numeric`;

/**
 * Buildings where too much of the last completed month is estimated (the setting
 * `monthEnd.estimatedShareWarn`, 25 % as the heating-cost rules cap it): by floor
 * area, the flats with any estimated month end against all flats with devices,
 * when every such flat has its area; else by devices. The evidence says which.
 */
const ESTIMATED_SHARE = `SELECT 'ESTIMATED_SHARE', x.building_id, NULL::int, $4::date,
      CASE WHEN x.by_area
           THEN jsonb_build_object('estimatedArea', x.est_area, 'totalArea', x.area, 'share', round(x.est_area / x.area, 3))
           ELSE jsonb_build_object('estimated', x.est, 'total', x.n, 'share', round(x.est::numeric / x.n, 3)) END
    FROM (
      SELECT f.building_id, sum(f.est)::int AS est, sum(f.n)::int AS n,
             bool_and(f.area IS NOT NULL) AND sum(f.area) > 0 AS by_area,
             sum(f.area) FILTER (WHERE f.est > 0) AS est_area, sum(f.area) AS area
        FROM (
          SELECT dev.building_id, l.id, l.area_m2 AS area,
                 count(*) FILTER (WHERE me.source = 'estimated') AS est, count(*) AS n
            FROM dev JOIN month_end me ON me.device_id = dev.id AND me.month = $4::date
            JOIN device d ON d.id = dev.id JOIN location l ON l.id = d.location_id
           GROUP BY dev.building_id, l.id, l.area_m2
        ) f
       GROUP BY f.building_id
    ) x
   WHERE x.est > 0
     AND CASE WHEN x.by_area THEN coalesce(x.est_area, 0) / x.area ELSE x.est::numeric / x.n END
         > ($3::jsonb ->> 'monthEnd.estimatedShareWarn')::numeric`;

export interface ValidateResult {
  found: number;
  opened: number;
  resolved: number;
}

/**
 * Runs the rules and brings `anomaly` up to date: a finding with an unresolved
 * row of the same (rule, building, device, month) refreshes its evidence; a new
 * one opens a row; an unresolved row of a rule that ran over its device (or
 * building) and month without finding it again resolves itself. `deviceIds`
 * null = the full run (every rule, every device); a list = the incremental run
 * after readings arrive (the device rules and high/low for those devices; the
 * reading rules over each device's latest readings only, and only opening or refreshing).
 */
export async function validate(db: Db, deviceIds: number[] | null, now = new Date()): Promise<ValidateResult> {
  return db.transaction(async (tx) => {
    const settings: DqSettings = await loadSettings(tx);
    const incremental = deviceIds !== null;
    const { rows: m } = await tx.query<{ month: string }>(
      "SELECT (date_trunc('month', $1::timestamptz) - interval '1 month')::date::text AS month",
      [now],
    );
    const month = m[0]!.month;
    const parts = [...Object.values(DEVICE_RULES), 'SELECT * FROM hits', 'SELECT * FROM sentinels', HIGH_LOW];
    const rules: RuleCode[] = [
      ...(Object.keys(DEVICE_RULES) as RuleCode[]),
      ...(deviceIds === null ? SERIES_RULES : []),
      'HIGH_CONSUMPTION',
      'LOW_CONSUMPTION',
    ];
    if (deviceIds === null) {
      parts.push(BUILDING_BALANCE, ESTIMATED_SHARE);
      rules.push('BUILDING_BALANCE', 'ESTIMATED_SHARE');
    }
    const { rows } = await tx.query<ValidateResult>(
      `WITH ${DEV}, ${incremental ? SERIES_INCREMENTAL : SERIES_FULL}${SERIES_REST}, ${incremental ? ZERO_DEV_INCREMENTAL : ZERO_DEV_FULL}, found AS (
         ${parts.map((p) => `(${p})`).join('\n UNION ALL ')}
       ), refreshed AS (
         UPDATE anomaly a SET evidence = f.evidence, last_seen_at = $2::timestamptz
           FROM found f
          WHERE a.state <> 'resolved' AND a.rule = f.rule AND a.building_id = f.building_id
            AND coalesce(a.device_id, 0) = coalesce(f.device_id, 0) AND a.month = f.month
         RETURNING a.id
       ), opened AS (
         INSERT INTO anomaly (rule, building_id, device_id, month, evidence, opened_at, last_seen_at)
         SELECT f.rule, f.building_id, f.device_id, f.month, f.evidence, $2::timestamptz, $2::timestamptz FROM found f
          WHERE NOT EXISTS (SELECT FROM anomaly a WHERE a.state <> 'resolved' AND a.rule = f.rule
                              AND a.building_id = f.building_id AND coalesce(a.device_id, 0) = coalesce(f.device_id, 0)
                              AND a.month = f.month)
          ORDER BY 1, 2, 3
         ON CONFLICT DO NOTHING
         RETURNING id
       ), resolved AS (
         UPDATE anomaly a SET state = 'resolved', resolved_at = $2::timestamptz
          WHERE a.state <> 'resolved' AND a.rule = ANY ($5::text[])
            AND a.month IN (${CURRENT}, $4::date)
            AND ($1::int[] IS NULL OR a.device_id = ANY ($1::int[]))
            AND NOT EXISTS (SELECT FROM found f WHERE a.rule = f.rule AND a.building_id = f.building_id
                              AND coalesce(a.device_id, 0) = coalesce(f.device_id, 0) AND a.month = f.month)
         RETURNING a.id
       )
       SELECT (SELECT count(*) FROM found)::int AS found, (SELECT count(*) FROM opened)::int AS opened,
              (SELECT count(*) FROM resolved)::int AS resolved`,
      [deviceIds, now, JSON.stringify(settings), month, rules],
    );
    return rows[0]!;
  });
}
