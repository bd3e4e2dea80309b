import { deviceModelKey, type LorawanMapping, type MappingUnit } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { conflict, notFound } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';

/**
 * The per-model field mappings of an LNS's decoded object (docs/lorawan.md, "Decoding"): which
 * field is the register, its unit and scale, which is the meter's time. One per model.
 */

const COLUMNS = `m.id AS "Id", m.model AS "Model", m.value_field AS "ValueField", m.unit AS "Unit",
  m.scale::float8 AS "Scale", m.time_field AS "TimeField", iso(m.updated_at) AS "UpdatedAt",
  (SELECT u.username FROM app_user u WHERE u.id = m.updated_by) AS "UpdatedBy"`;

export interface MappingInput {
  model: string;
  valueField: string;
  unit: MappingUnit;
  scale?: number;
  timeField?: string | null;
}

const shape = (m: LorawanMapping) => ({
  Model: m.Model,
  ValueField: m.ValueField,
  Unit: m.Unit,
  Scale: m.Scale,
  TimeField: m.TimeField,
});

async function audit(
  db: Queryable,
  actor: Actor,
  kind: 'lorawanMapping.create' | 'lorawanMapping.update' | 'lorawanMapping.delete',
  before: LorawanMapping | null,
  after: LorawanMapping | null,
) {
  await recordAudit(db, {
    actor,
    kind,
    entity: 'lorawanMapping',
    entityId: (after ?? before)!.Id,
    before: before && shape(before),
    after: after && shape(after),
  });
}

export async function listMappings(db: Queryable): Promise<LorawanMapping[]> {
  const { rows } = await db.query<LorawanMapping>(`SELECT ${COLUMNS} FROM lorawan_mapping m ORDER BY m.model_key`);
  return rows;
}

async function getMapping(db: Queryable, id: number, lock = false): Promise<LorawanMapping> {
  const { rows } = await db.query<LorawanMapping>(
    `SELECT ${COLUMNS} FROM lorawan_mapping m WHERE m.id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  if (!rows[0]) throw notFound('lorawanMappingNotFound');
  return rows[0];
}

const values = (input: MappingInput, actor: Actor) => [
  input.model.trim(),
  deviceModelKey(input.model),
  input.valueField,
  input.unit,
  input.scale ?? 1,
  input.timeField ?? null,
  actor?.id ?? null,
];

export async function createMapping(tx: Queryable, input: MappingInput, actor: Actor): Promise<LorawanMapping> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO lorawan_mapping (model, model_key, value_field, unit, scale, time_field, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (model_key) DO NOTHING RETURNING id`,
    values(input, actor),
  );
  if (!rows[0]) throw conflict('lorawanMappingModelTaken', { model: input.model.trim() });
  const created = await getMapping(tx, rows[0].id);
  await audit(tx, actor, 'lorawanMapping.create', null, created);
  return created;
}

export async function updateMapping(
  tx: Queryable,
  id: number,
  input: MappingInput,
  actor: Actor,
): Promise<LorawanMapping> {
  const before = await getMapping(tx, id, true);
  const { rows: taken } = await tx.query('SELECT 1 FROM lorawan_mapping WHERE model_key = $1 AND id <> $2', [
    deviceModelKey(input.model),
    id,
  ]);
  if (taken.length) throw conflict('lorawanMappingModelTaken', { model: input.model.trim() });
  await tx.query(
    `UPDATE lorawan_mapping SET model = $2, model_key = $3, value_field = $4, unit = $5, scale = $6, time_field = $7,
            updated_by = $8, updated_at = now()
      WHERE id = $1`,
    [id, ...values(input, actor)],
  );
  const after = await getMapping(tx, id);
  await audit(tx, actor, 'lorawanMapping.update', before, after);
  return after;
}

export async function deleteMapping(tx: Queryable, id: number, actor: Actor): Promise<LorawanMapping> {
  const before = await getMapping(tx, id, true);
  await tx.query('DELETE FROM lorawan_mapping WHERE id = $1', [id]);
  await audit(tx, actor, 'lorawanMapping.delete', before, null);
  return before;
}
