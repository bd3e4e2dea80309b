import type { StatementHeatBalance } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { computeRows } from '../statements/figures.js';

/*
 * HEAT_UNBALANCED (docs/data-quality.md, docs/heat-method.md "Unbalanced"): a building whose month,
 * split by its heat method, is unbalanced (a part would be negative, so no flat gets kWh) opens one
 * anomaly per building and month saying why. Run by the full validation for the last completed
 * month; a month that balances again resolves it.
 */

/** Per building with a method valid in `month` whose split is unbalanced: its balance. */
async function unbalancedBuildings(db: Db, month: string): Promise<Map<number, StatementHeatBalance>> {
  // The buildings whose latest version up to the month is a method (not the plain rule).
  const { rows } = await db.query<{ building_id: number }>(
    `SELECT building_id FROM (
       SELECT DISTINCT ON (building_id) building_id, hot_water_heat FROM building_heat_method
        WHERE valid_from <= $1::date ORDER BY building_id, valid_from DESC) v
      WHERE v.hot_water_heat IS NOT NULL ORDER BY building_id`,
    [`${month}-01`],
  );
  const out = new Map<number, StatementHeatBalance>();
  if (!rows.length) return out;
  const figures = await computeRows(db, month, { scope: null, parents: rows.map((r) => r.building_id) });
  for (const row of figures) {
    const balance = row.Kinds.find((k) => k.Kind === 'heating')?.HeatBalance;
    if (balance?.Status === 'unbalanced' && !out.has(row.BuildingId)) out.set(row.BuildingId, balance);
  }
  return out;
}

/**
 * Opens (or refreshes) HEAT_UNBALANCED for every building whose `month` ('YYYY-MM'; default: the last
 * completed month) is unbalanced,
 * and resolves the open ones of that month that balance now. One row per building and month.
 */
export async function checkHeatBalance(db: Db, now = new Date(), month?: string) {
  // The last completed month, as the validation's monthly rules take it.
  month ??= (
    await db.query<{ month: string }>(
      "SELECT to_char(date_trunc('month', $1::timestamptz) - interval '1 month', 'YYYY-MM') AS month",
      [now],
    )
  ).rows[0]!.month;
  const found = await unbalancedBuildings(db, month);
  const list = [...found].map(([building, b]) => ({
    building,
    evidence: { unbalancedReason: b.Reason, method: b.Method, methodFrom: b.ValidFrom },
  }));
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ opened: number; resolved: number }>(
      `WITH f AS (
         SELECT * FROM json_to_recordset($1::json) AS f(building int, evidence jsonb)
       ), refreshed AS (
         UPDATE anomaly a SET evidence = f.evidence, last_seen_at = $2::timestamptz FROM f
          WHERE a.state <> 'resolved' AND a.rule = 'HEAT_UNBALANCED' AND a.building_id = f.building
            AND a.device_id IS NULL AND a.month = $3::date
         RETURNING a.id
       ), opened AS (
         INSERT INTO anomaly (rule, building_id, month, evidence, opened_at, last_seen_at)
         SELECT 'HEAT_UNBALANCED', f.building, $3::date, f.evidence, $2::timestamptz, $2::timestamptz FROM f
          WHERE NOT EXISTS (SELECT FROM anomaly a WHERE a.state <> 'resolved' AND a.rule = 'HEAT_UNBALANCED'
                              AND a.building_id = f.building AND a.device_id IS NULL AND a.month = $3::date)
         ON CONFLICT DO NOTHING
         RETURNING id
       ), resolved AS (
         UPDATE anomaly a SET state = 'resolved', resolved_at = $2::timestamptz
          WHERE a.state <> 'resolved' AND a.rule = 'HEAT_UNBALANCED' AND a.month = $3::date
            AND NOT EXISTS (SELECT FROM f WHERE f.building = a.building_id)
         RETURNING a.id
       )
       SELECT (SELECT count(*) FROM opened)::int AS opened, (SELECT count(*) FROM resolved)::int AS resolved`,
      [JSON.stringify(list), now, `${month}-01`],
    );
    return { found: list.length, ...rows[0]! };
  });
}
