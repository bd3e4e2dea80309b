import type { ImportCounts } from '@rodmenys/contract';
import type { Tx } from '../../../db/db.js';
import { type Actor, type AuditRecord, recordAudit } from '../../audit/record-audit.js';
import { computeMoveValues, dropStaleMoveValues } from '../../occupancies/move-values.js';
import { readOccupancyAudits } from '../../occupancies/occupancies.js';
import { type FileFlat, overlaps } from './conflicts.js';
import type { Loc, RowErrors, RowOccupancy } from './types.js';

/** A stored occupancy of a flat the file names. */
interface StoredOccupancy extends RowOccupancy {
  id: number;
  clientCode: string;
  name: string;
}

/** An occupancy to write: a new one (id null) or a stored one changed. */
interface OccupancyWrite extends RowOccupancy {
  id: number | null;
  flatKey: string;
  clientCode: string;
  name: string;
}

export interface OccupancyPlan {
  writes: OccupancyWrite[];
}

/** The stored occupancies of the file's stored flats, by flat id. */
export async function loadStoredOccupancies(tx: Tx, flatIds: number[]): Promise<Map<number, StoredOccupancy[]>> {
  const { rows } = await tx.query<StoredOccupancy & { flatId: number }>(
    `SELECT o.id, o.location_id AS "flatId", c.code AS "clientCode", o.name, o.email, o.phone, o.language,
            o.move_in::text AS "moveIn", o.move_out::text AS "moveOut", o.consent_at::text AS "consentAt",
            o.consent_channel AS "consentChannel"
       FROM occupancy o JOIN client c ON c.id = o.client_id WHERE o.location_id = ANY ($1::int[])
      ORDER BY o.move_in NULLS FIRST`,
    [flatIds],
  );
  const byFlat = new Map<number, StoredOccupancy[]>();
  for (const { flatId, ...o } of rows) byFlat.set(flatId, [...(byFlat.get(flatId) ?? []), o]);
  return byFlat;
}

const SAME_FIELDS = [
  'clientCode',
  'name',
  'email',
  'phone',
  'language',
  'moveIn',
  'moveOut',
  'consentAt',
  'consentChannel',
] as const;

/**
 * The occupancies to create and change (docs/occupancies.md, "Register import"). A flat whose rows
 * name occupants: each is matched to a stored one by its move-in day (a stored one open since before
 * the records also by its account) and written; a stored one it does not match must not overlap it
 * (OCCUPANCY_OVERLAP, on the file's line). A flat whose rows name none, with a client: it gets one
 * open occupancy of that client when it has none, and a sole occupancy open at both ends follows
 * the client.
 */
export function planOccupancies(
  flats: Map<string, FileFlat>,
  storedFlats: Map<string, Loc>,
  stored: Map<number, StoredOccupancy[]>,
  clientNames: Map<string, string>,
  errors: RowErrors,
  counts: ImportCounts,
): OccupancyPlan {
  const writes: OccupancyWrite[] = [];
  for (const [flatKey, flat] of flats) {
    const loc = storedFlats.get(flatKey);
    const existing = (loc && stored.get(loc.id)) ?? [];
    if (!flat.occupancies.length) {
      if (flat.clientCode === null) continue;
      const name = clientNames.get(flat.clientCode) ?? flat.clientCode;
      const open = { moveIn: null, moveOut: null, email: null, phone: null, language: null };
      if (!existing.length) {
        writes.push({
          ...open,
          id: null,
          flatKey,
          clientCode: flat.clientCode,
          name,
          consentAt: null,
          consentChannel: null,
        });
        counts.Created++;
      } else if (existing.length === 1 && existing[0]!.moveIn === null && existing[0]!.moveOut === null) {
        const only = existing[0]!;
        if (only.clientCode === flat.clientCode) counts.Unchanged++;
        else {
          writes.push({ ...only, flatKey, clientCode: flat.clientCode, name });
          counts.Changed++;
        }
      }
      continue;
    }
    const matched = new Set<number>();
    for (const o of flat.occupancies) {
      const match =
        existing.find((s) => !matched.has(s.id) && s.moveIn === o.moveIn) ??
        existing.find((s) => !matched.has(s.id) && s.moveIn === null && s.clientCode === o.clientCode);
      const name = o.name ?? o.clientName ?? clientNames.get(o.clientCode) ?? o.clientCode;
      const after: OccupancyWrite = { ...o, id: match?.id ?? null, flatKey, name };
      if (match) {
        matched.add(match.id);
        // An empty contact cell keeps the stored contact.
        after.email ??= match.email;
        after.phone ??= match.phone;
        after.language ??= match.language;
        after.consentAt ??= match.consentAt;
        after.consentChannel ??= match.consentChannel;
        if (SAME_FIELDS.every((f) => after[f] === match[f])) {
          counts.Unchanged++;
          continue;
        }
        counts.Changed++;
      } else counts.Created++;
      writes.push(after);
    }
    for (const s of existing) {
      if (matched.has(s.id)) continue;
      const o = flat.occupancies.find((x) => overlaps(x, s));
      if (o) {
        errors.add(
          o.line,
          'OCCUPANCY_OVERLAP',
          { column: 'MoveIn', from: s.moveIn ?? '…', till: s.moveOut ?? '…' },
          `The occupancy overlaps a stored one (${s.moveIn ?? '…'} – ${s.moveOut ?? '…'})`,
        );
      }
    }
  }
  return { writes };
}

/**
 * Writes the planned occupancies (changes first, so a shortened occupancy makes room for a new
 * one), each audited, and values the flats' moves.
 */
export async function writeOccupancies(
  tx: Tx,
  plan: OccupancyPlan,
  actor: Actor,
  locationsByKey: Map<string, Loc>,
): Promise<void> {
  if (!plan.writes.length) return;
  const rows = plan.writes.map((w) => ({
    id: w.id,
    location_id: locationsByKey.get(w.flatKey)!.id,
    client_code: w.clientCode,
    name: w.name,
    email: w.email,
    phone: w.phone,
    language: w.language,
    move_in: w.moveIn,
    move_out: w.moveOut,
    consent_at: w.consentAt,
    consent_channel: w.consentChannel,
  }));
  const changed = rows.filter((r) => r.id !== null).map((r) => r.id!);
  const before = await readOccupancyAudits(tx, changed);
  const INPUT = `json_to_recordset($1::json) AS u(id int, location_id int, client_code text, name text, email text,
    phone text, language text, move_in date, move_out date, consent_at date, consent_channel text)
    JOIN client c ON c.code = u.client_code`;
  await tx.query(
    `UPDATE occupancy o SET client_id = c.id, name = u.name, email = u.email, phone = u.phone, language = u.language,
            move_in = u.move_in, move_out = u.move_out, consent_at = u.consent_at, consent_channel = u.consent_channel
       FROM ${INPUT} WHERE o.id = u.id`,
    [JSON.stringify(rows.filter((r) => r.id !== null))],
  );
  const { rows: created } = await tx.query<{ id: number }>(
    `INSERT INTO occupancy (location_id, client_id, name, email, phone, language, move_in, move_out, consent_at,
                            consent_channel)
     SELECT u.location_id, c.id, u.name, u.email, u.phone, u.language, u.move_in, u.move_out, u.consent_at,
            u.consent_channel
       FROM ${INPUT} WHERE u.id IS NULL RETURNING id`,
    [JSON.stringify(rows.filter((r) => r.id === null))],
  );
  const after = await readOccupancyAudits(tx, [...changed, ...created.map((r) => r.id)]);
  const audits: AuditRecord[] = [...after].map(([id, shape]) => ({
    actor,
    kind: before.has(id) ? 'occupancy.update' : 'occupancy.create',
    entity: 'occupancy',
    entityId: id,
    before: before.get(id) ?? null,
    after: shape,
  }));
  await recordAudit(tx, audits);
  const flatIds = [...new Set(rows.map((r) => r.location_id))];
  await dropStaleMoveValues(tx, flatIds);
  await computeMoveValues(tx, { flatIds });
}
