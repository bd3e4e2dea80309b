import { createHash } from 'node:crypto';
import { BILLING_COLUMNS, type OccupancyStatement, type StatementRow } from '@rodmenys/contract';
import type { Account } from './account.js';

/*
 * What a building's frozen billing export was made of (docs/statements.md, "Publishing again"): publishing again
 * compares the export's inputs, not its 30 MB of rows. A building's rows are a function of its statements' rows
 * (held by the version's snapshots), its occupants' splits (held there too), and what the snapshots do not
 * hold: the flats' order, the devices' lines and the accounts, whose digest is kept beside the frozen rows.
 */

/**
 * Changed whenever the rows made of the same inputs change (a column, a rule of assembling them): every
 * digest kept before then no longer matches, and those versions are compared row by row once. 2: the rows
 * frozen without their null members (rows.ts, frozenRowsText).
 */
const ROWS_FORMAT = 2;

/**
 * Changed whenever the digest is made differently: 2, the device lines' digest written by PostgreSQL instead of
 * the lines themselves.
 */
const DIGEST_FORMAT = 2;

/** What the digest is made of besides the flats: the device lines' digests by building, the flats' accounts. */
export interface DigestInputs {
  deviceDigests: ReadonlyMap<number, string>;
  accounts: ReadonlyMap<number, Account>;
}

/**
 * The digest of a building's inputs that its snapshots do not hold (SHA-256, hex): its device lines by their
 * digest (device-lines.ts), the flats' order and accounts.
 */
export function exportInputsDigest(
  month: string,
  buildingId: number,
  flats: readonly Pick<StatementRow, 'FlatId'>[],
  inputs: DigestInputs,
): string {
  const text = JSON.stringify([
    DIGEST_FORMAT,
    ROWS_FORMAT,
    BILLING_COLUMNS,
    month,
    buildingId,
    flats.map((f) => f.FlatId),
    inputs.deviceDigests.get(buildingId) ?? null,
    flats.map((f) => inputs.accounts.get(f.FlatId) ?? null),
  ]);
  return createHash('sha256').update(text).digest('hex');
}

/** The same value once written as JSON (object keys in any order, a member undefined as if absent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => sameJson(x, bs[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => rb[k] !== undefined && sameJson(ra[k], rb[k]));
}

/**
 * The statements' rows and splits of a building now are those frozen with its previous version (`frozen`:
 * its snapshots' rows and splits), flat by flat; a flat on one side only, or split on one side only, differs.
 */
export function sameAsFrozen(
  flats: readonly StatementRow[],
  splits: ReadonlyMap<number, OccupancyStatement[]>,
  frozen: { rows: readonly StatementRow[]; splits: ReadonlyMap<number, OccupancyStatement[]> },
): boolean {
  if (flats.length !== frozen.rows.length) return false;
  const rows = new Map(frozen.rows.map((r) => [r.FlatId, r]));
  return flats.every(
    (f) =>
      rows.has(f.FlatId) &&
      sameJson(f, rows.get(f.FlatId)) &&
      sameJson(splits.get(f.FlatId) ?? null, frozen.splits.get(f.FlatId) ?? null),
  );
}
