import { type ImportReport, MAX_IMPORT_ERRORS, REGISTER_COLUMNS, type RegisterColumn } from '@rodmenys/contract';
import type { Db } from '../../../db/db.js';
import { type Actor, recordAudit } from '../../audit/record-audit.js';
import { adoptWaiting } from '../../ingest/ingest-telegrams.js';
import { adoptWaitingUplinks, devicesWithWaitingUplinks } from '../../lorawan/device-eui.js';
import { writeIntoMonths } from '../../partitions/partitions.js';
import { RegisterFileError, type RegisterRow, readRegisterFile } from '../register-file.js';
import { checkConflicts } from './conflicts.js';
import { planHeatMethods, writeHeatMethods } from './heat-methods.js';
import { loadStoredOccupancies, planOccupancies, writeOccupancies } from './occupancies.js';
import { planImport } from './plan.js';
import { loadDeviceTypes, parseRow } from './rows.js';
import { loadStored } from './stored.js';
import { type Counts, emptyCounts, type Row, RowErrors, type Stored } from './types.js';
import { writePlan } from './write.js';

/** Serialises imports: each plans from what is stored. */
const IMPORT_LOCK = 7243902;

/**
 * Register import (docs/master-data.md): reads the file, checks every row on its own
 * (rows.ts) and against the file and the stored records (conflicts.ts), plans what to
 * create and change (plan.ts) and writes it in bulk with an audit entry per record
 * (write.ts, audit.ts). With any bad row nothing is written. A preview runs the very same
 * path in a transaction that is rolled back, so preview and apply cannot disagree.
 */
export async function importRegister(
  db: Db,
  actor: Actor,
  data: Buffer,
  options: { apply: boolean; fileName?: string },
): Promise<ImportReport> {
  const errors = new RowErrors();
  const file = await readFile(data, errors);
  if (!file) return report(false, 0, emptyCounts(), errors);
  const { rows, columns } = file;
  // Readings adopted from the inbox go into months that get their partitions first (docs/scaling.md).
  return writeIntoMonths(db, () =>
    db.transaction(
      async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [IMPORT_LOCK]);
        const typeIds = await loadDeviceTypes(tx);
        const valid = rows.map((r) => parseRow(r, typeIds, errors)).filter((r): r is Row => r !== null);
        const heat = planHeatMethods(rows, errors);
        const stored = await loadStored(tx, valid);
        const { rows: day } = await tx.query<{ today: string }>('SELECT current_date::text AS today');
        const { good, flats } = checkConflicts(valid, stored, errors, day[0]!.today);
        const plan = planImport(good, stored, flats, columns);
        const occupancies = planOccupancies(
          flats,
          stored.locations,
          await loadStoredOccupancies(tx, storedFlatIds(flats, stored)),
          clientNames(good, stored),
          errors,
          plan.counts.Occupancies,
        );
        if (errors.count) return report(false, rows.length, plan.counts, errors);
        await writePlan(tx, plan, actor);
        await writeOccupancies(tx, occupancies, actor, plan.locationsByKey);
        await writeHeatMethods(tx, heat, actor, (key) => plan.locationsByKey.get(key)?.id);
        // Devices created with serials whose telegrams wait in the inbox take them in now.
        await adoptWaiting(tx);
        // And devices given a DevEUI whose uplinks wait in the LoRaWAN inbox (docs/lorawan.md).
        await adoptWaitingUplinks(tx, await devicesWithWaitingUplinks(tx, good));
        await recordAudit(tx, {
          actor,
          kind: 'register.import',
          entity: 'register',
          entityId: options.fileName ?? null,
          before: null,
          after: { rows: rows.length, ...plan.counts },
        });
        return report(options.apply, rows.length, plan.counts, errors);
      },
      { rollback: !options.apply },
    ),
  );
}

const storedFlatIds = (flats: Map<string, unknown>, stored: Stored) =>
  [...flats.keys()].flatMap((key) => {
    const id = stored.locations.get(key)?.id;
    return id === undefined ? [] : [id];
  });

/** A client's name by code: the file's (first row that names it), else the stored one. */
function clientNames(rows: Row[], stored: Stored): Map<string, string> {
  const names = new Map<string, string>();
  for (const r of rows) {
    if (r.client && !names.has(r.client.code) && r.client.name) names.set(r.client.code, r.client.name);
  }
  for (const [code, c] of stored.clients) if (!names.has(code)) names.set(code, c.name ?? code);
  return names;
}

/** The file's rows and columns, or undefined with the reasons in `errors` (line 0). */
async function readFile(
  data: Buffer,
  errors: RowErrors,
): Promise<{ rows: RegisterRow[]; columns: Set<RegisterColumn> } | undefined> {
  try {
    const { rows, columns } = await readRegisterFile(data);
    if (!rows.length) errors.add(0, 'EMPTY_FILE', {}, 'The file has no data rows');
    for (const c of REGISTER_COLUMNS) {
      if (c.required && !columns.has(c.key)) {
        errors.add(0, 'MISSING_COLUMN', { column: c.key }, `The file has no column "${c.en}"`);
      }
    }
    return errors.count ? undefined : { rows, columns };
  } catch (err) {
    if (!(err instanceof RegisterFileError)) throw err;
    errors.add(0, 'BAD_FILE', {}, err.message);
    return undefined;
  }
}

function report(applied: boolean, rowCount: number, counts: Counts, errors: RowErrors): ImportReport {
  const sorted = errors.list.sort((a, b) => a.Line - b.Line);
  return {
    Applied: applied && sorted.length === 0,
    Rows: rowCount,
    ...counts,
    Errors: sorted.slice(0, MAX_IMPORT_ERRORS),
    ErrorCount: sorted.length,
  };
}
