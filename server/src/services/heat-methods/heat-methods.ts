import {
  type BuildingHeatMethods,
  canManageUsers,
  type HeatMethodBody,
  type HeatMethodVersion,
  LOCATION_LEVEL,
  seesEverything,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { buildingIdOf, inScope } from '../sql.js';
import { accountNameSql } from '../users/account-scope.js';

/*
 * A building's heat method versions (docs/heat-method.md): read by group 1 and by group 2 within its
 * scope, set by group 1 from a month on (audited). The statements read the version valid in each
 * month through heatMethodsOf.
 */

/** SQL: a version's columns as the contract names them. */
const VERSION = `to_char(m.valid_from, 'YYYY-MM') AS "ValidFrom", m.hot_water_heat AS "HotWaterHeat",
  m.kwh_per_m3::float8 AS "KwhPerM3", m.circulation_norm::float8 AS "CirculationNorm",
  m.hot_water_temperature::float8 AS "HotWaterTemperature", m.district_heat AS "DistrictHeat",
  m.seasons AS "Seasons", m.common_share::float8 AS "CommonShare", m.base_share::float8 AS "BaseShare",
  m.minimum_share::float8 AS "MinimumShare", m.flats AS "Flats",
  iso(m.changed_at) AS "ChangedAt"`;

/** A building the caller may see, with its flats; 404 when it is no building or out of scope. */
async function buildingOf(db: Queryable, scope: number[] | null, id: number) {
  const { rows } = await db.query<{ path: string }>(
    `SELECT address_label(l) AS path FROM location l
      WHERE l.id = $1 AND l.level = ${LOCATION_LEVEL.building} AND ${inScope('l', '$2')}`,
    [id, scope],
  );
  if (!rows[0]) throw notFound('buildingNotFound');
  const { rows: flats } = await db.query<BuildingHeatMethods['Flats'][number]>(
    `SELECT l.id AS "FlatId", l.flat AS "Flat", l.area_m2::float8 AS "AreaM2" FROM location l
      WHERE ${buildingIdOf('l')} = $1 AND l.level = ${LOCATION_LEVEL.flat}
      ORDER BY l.flat_order NULLS FIRST, l.flat, l.id`,
    [id],
  );
  return { path: rows[0].path, flats };
}

/**
 * Every version of the buildings' methods, oldest first, per building; who changed each as `reader`
 * may see it (docs/security.md, "Names of accounts"; no reader: nobody's name).
 */
export async function heatMethodsOf(
  db: Queryable,
  buildingIds: readonly number[],
  reader: Pick<Caller, 'id' | 'groupId'> | null = null,
) {
  const { rows } = await db.query<HeatMethodVersion & { building_id: number }>(
    `SELECT m.building_id, ${VERSION}, ${accountNameSql(reader, 'u')} AS "ChangedBy"
       FROM building_heat_method m LEFT JOIN app_user u ON u.id = m.changed_by
      WHERE m.building_id = ANY ($1::int[]) ORDER BY m.building_id, m.valid_from`,
    [buildingIds],
  );
  const out = new Map<number, HeatMethodVersion[]>();
  for (const { building_id, ...v } of rows) out.set(building_id, [...(out.get(building_id) ?? []), v]);
  return out;
}

/** The version valid in month `m` ('YYYY-MM') of a building's versions (oldest first); null: none. */
export const versionIn = (versions: readonly HeatMethodVersion[] | undefined, m: string) =>
  versions?.findLast((v) => v.ValidFrom <= m) ?? null;

/** A building's method versions, for group 1 and for group 2 within its scope. */
export async function getBuildingHeatMethods(db: Queryable, caller: Caller, id: number): Promise<BuildingHeatMethods> {
  if (!canManageUsers(caller.groupId)) throw forbidden();
  const b = await buildingOf(db, caller.scope, id);
  const versions = (await heatMethodsOf(db, [id], caller)).get(id) ?? [];
  return { BuildingId: id, Path: b.path, Flats: b.flats, Versions: versions };
}

/** Refuses season periods that end before they start or overlap, and flats not of the building or listed twice. */
function checkBody(body: HeatMethodBody, flatIds: ReadonlySet<number>) {
  const seasons = [...body.Seasons].sort((a, b) => a.From.localeCompare(b.From));
  for (const [i, s] of seasons.entries()) {
    if (s.To !== null && s.To < s.From)
      throw badRequest('heatSeasonEndsBeforeStart', { from: s.From, to: s.To }, 'Seasons');
    const next = seasons[i + 1];
    if (next && (s.To === null || next.From <= s.To))
      throw badRequest('heatSeasonsOverlap', { from: next.From }, 'Seasons');
  }
  const seen = new Set<number>();
  for (const f of body.Flats) {
    if (!flatIds.has(f.FlatId)) throw badRequest('heatMethodFlatNotInBuilding', { flatId: String(f.FlatId) }, 'Flats');
    if (seen.has(f.FlatId)) throw badRequest('heatMethodFlatTwice', { flatId: String(f.FlatId) }, 'Flats');
    seen.add(f.FlatId);
  }
  return seasons;
}

/** Sets a building's method from month `month` on (group 1; audited with the version before and after). */
export async function setBuildingHeatMethod(
  db: Db,
  caller: Caller,
  id: number,
  month: string,
  body: HeatMethodBody,
): Promise<BuildingHeatMethods> {
  if (!seesEverything(caller.groupId)) throw forbidden();
  return db.transaction(async (tx) => {
    const b = await buildingOf(tx, caller.scope, id);
    const seasons = checkBody(body, new Set(b.flats.map((f) => f.FlatId)));
    await writeHeatMethodVersion(tx, caller, { id, path: b.path }, month, { ...body, Seasons: seasons });
    const versions = (await heatMethodsOf(tx, [id], caller)).get(id) ?? [];
    return { BuildingId: id, Path: b.path, Flats: b.flats, Versions: versions };
  });
}

/**
 * Stores a building's version valid from `month` ('YYYY-MM'), over the one already there, unchecked and
 * unaudited: writeHeatMethodVersion's store, and the demo's (demo/heat-methods.ts).
 */
export async function storeHeatMethodVersion(
  tx: Queryable,
  building: number,
  month: string,
  body: HeatMethodBody,
  changedBy: number | null,
): Promise<void> {
  await tx.query(
    `INSERT INTO building_heat_method (building_id, valid_from, hot_water_heat, kwh_per_m3, circulation_norm,
         hot_water_temperature, district_heat, seasons, common_share, base_share, minimum_share, flats, changed_by)
       VALUES ($1, ($2 || '-01')::date, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12::jsonb, $13)
       ON CONFLICT (building_id, valid_from) DO UPDATE SET hot_water_heat = excluded.hot_water_heat,
         kwh_per_m3 = excluded.kwh_per_m3, circulation_norm = excluded.circulation_norm,
         hot_water_temperature = excluded.hot_water_temperature, district_heat = excluded.district_heat,
         seasons = excluded.seasons, common_share = excluded.common_share, base_share = excluded.base_share,
         minimum_share = excluded.minimum_share, flats = excluded.flats, changed_by = excluded.changed_by,
         changed_at = now()`,
    [
      building,
      month,
      body.HotWaterHeat,
      body.KwhPerM3,
      body.CirculationNorm,
      body.HotWaterTemperature,
      body.DistrictHeat,
      JSON.stringify(body.Seasons),
      body.CommonShare,
      body.BaseShare,
      body.MinimumShare,
      JSON.stringify(body.Flats),
      changedBy,
    ],
  );
}

/**
 * Writes a building's version valid from `month` (checked already: seasons in order, the building's flats),
 * audited as `heatMethod.set` with the version before and after; answers the building's versions.
 * The API and the register import (docs/master-data.md) both write through it.
 */
export async function writeHeatMethodVersion(
  tx: Queryable,
  actor: Actor,
  building: { id: number; path: string },
  month: string,
  body: HeatMethodBody,
): Promise<HeatMethodVersion[]> {
  const { id } = building;
  const flats = [...body.Flats].sort((x, y) => x.FlatId - y.FlatId);
  const before = versionIn((await heatMethodsOf(tx, [id])).get(id), month);
  await storeHeatMethodVersion(tx, id, month, { ...body, Flats: flats }, actor?.id ?? null);
  const versions = (await heatMethodsOf(tx, [id])).get(id) ?? [];
  const audit = (v: HeatMethodVersion | null) => {
    if (!v) return null;
    const { ChangedBy: _by, ChangedAt: _at, ...shape } = v;
    return { Building: building.path, ...shape };
  };
  await recordAudit(tx, {
    actor,
    kind: 'heatMethod.set',
    entity: 'heatMethod',
    entityId: `${id}|${month}`,
    before: audit(before),
    after: audit(versionIn(versions, month)),
  });
  return versions;
}
