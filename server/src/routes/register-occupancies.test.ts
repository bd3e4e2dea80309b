import type { ImportReport, RegisterColumn } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';

type RowData = Partial<Record<RegisterColumn, string>>;

const row = (flat: string, code: string, extra: RowData = {}): RowData => ({
  Country: 'Lietuva',
  County: 'Klaipėdos apskritis',
  Region: 'Klaipėdos m. sav.',
  City: 'Klaipėda',
  Street: 'Tiltų g.',
  Building: '9',
  Flat: flat,
  ObjectCode: 'OBJ-T9',
  ClientCode: `T-${flat}`,
  ClientName: `Savininkas ${flat}`,
  DeviceType: 'CWM',
  DeviceCode: code,
  ...extra,
});

/** A CSV with the given columns only (headers by key), `;` separated. */
function csv(rows: RowData[], columns: RegisterColumn[]): Buffer {
  const lines = [columns.join(';'), ...rows.map((r) => columns.map((c) => r[c] ?? '').join(';'))];
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

const PLAIN: RegisterColumn[] = [
  'Country',
  'County',
  'Region',
  'City',
  'Street',
  'Building',
  'Flat',
  'ObjectCode',
  'ClientCode',
  'ClientName',
  'DeviceType',
  'DeviceCode',
];
const WITH_OCCUPANTS: RegisterColumn[] = [...PLAIN, 'OccupantName', 'OccupantEmail', 'MoveIn', 'MoveOut'];

// The register import's occupancy columns (docs/occupancies.md, docs/master-data.md).
describe(`register import with and without occupancy columns (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: contract.GROUP.operator })).token;
  }, 120_000);

  const apply = async (file: Buffer): Promise<ImportReport> => {
    const res = await inject(t.app, contract.applyRegisterImport, {
      token: operator,
      payload: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const occupantsOf = async (flat: string) => {
    const { rows } = await t.db.query<{ code: string; name: string; move_in: string | null; move_out: string | null }>(
      `SELECT c.code, o.name, o.move_in::text, o.move_out::text FROM occupancy o
         JOIN client c ON c.id = o.client_id JOIN location l ON l.id = o.location_id
        WHERE l.street = 'Tiltų g.' AND l.flat = $1 ORDER BY o.move_in NULLS FIRST`,
      [flat],
    );
    return rows;
  };

  it('without the columns: one open occupancy per flat from its client, once', async () => {
    const file = csv([row('1', 'T-CW-1'), row('1', 'T-CW-1b'), row('2', 'T-CW-2')], PLAIN);
    const first = await apply(file);
    expect(first.Applied).toBe(true);
    expect(first.Occupancies).toEqual({ Created: 2, Changed: 0, Unchanged: 0 });
    expect(await occupantsOf('1')).toEqual([{ code: 'T-1', name: 'Savininkas 1', move_in: null, move_out: null }]);
    const again = await apply(file);
    expect(again.Occupancies).toEqual({ Created: 0, Changed: 0, Unchanged: 2 });
  });

  it('with the columns: the occupants over time, the open one matched by its account, the flat’s client today’s', async () => {
    const report = await apply(
      csv(
        [
          row('1', 'T-CW-1', { MoveOut: '2026-03-15' }),
          row('1', 'T-CW-1b', {
            ClientCode: 'T-1N',
            ClientName: 'Naujas',
            OccupantName: 'Rūta Naujienė',
            OccupantEmail: 'ruta@example.lt',
            MoveIn: '2026-03-15',
          }),
        ],
        WITH_OCCUPANTS,
      ),
    );
    expect(report.Errors).toEqual([]);
    expect(report.Occupancies).toMatchObject({ Created: 1, Changed: 1 });
    expect(await occupantsOf('1')).toEqual([
      { code: 'T-1', name: 'Savininkas 1', move_in: null, move_out: '2026-03-15' },
      { code: 'T-1N', name: 'Rūta Naujienė', move_in: '2026-03-15', move_out: null },
    ]);
    const { rows } = await t.db.query<{ code: string }>(
      "SELECT c.code FROM location l JOIN client c ON c.id = l.client_id WHERE l.street = 'Tiltų g.' AND l.flat = '1'",
    );
    expect(rows[0]?.code).toBe('T-1N');
    const audit = await inject(t.app, contract.getAuditLog, { query: { kind: 'occupancy.create' }, token: operator });
    expect(audit.body.Data.map((e) => e.EntityName)).toContain('T-1N Rūta Naujienė');
  });

  it('refuses overlapping periods naming the line, in the file and against what is stored; writes nothing', async () => {
    const inFile = await apply(
      csv(
        [
          row('3', 'T-CW-3', { MoveIn: '2026-01-01', MoveOut: '2026-05-01' }),
          row('3', 'T-CW-3b', { ClientCode: 'T-3N', MoveIn: '2026-04-01' }),
        ],
        WITH_OCCUPANTS,
      ),
    );
    expect(inFile.Applied).toBe(false);
    expect(inFile.Errors).toMatchObject([
      { Line: 3, Code: 'OCCUPANCY_OVERLAP', Params: { line: 2, from: '2026-01-01', till: '2026-05-01' } },
    ]);
    expect(await occupantsOf('3')).toEqual([]);
    // Flat 2 has an open occupancy of T-2 since before the records: another account from 2026-02-01 overlaps it.
    const stored = await apply(csv([row('2', 'T-CW-2', { ClientCode: 'T-2X', MoveIn: '2026-02-01' })], WITH_OCCUPANTS));
    expect(stored.Errors).toMatchObject([{ Line: 2, Code: 'OCCUPANCY_OVERLAP', Params: { from: '…', till: '…' } }]);
    const bad = await apply(csv([row('2', 'T-CW-2', { MoveIn: '2026-05-01', MoveOut: '2026-04-01' })], WITH_OCCUPANTS));
    expect(bad.Errors).toMatchObject([{ Line: 2, Code: 'MOVE_OUT_BEFORE_MOVE_IN', Params: { column: 'MoveOut' } }]);
  });
});
