import { DEVICE_TYPE, type ReadingRow } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings } from '../../../test/factories.js';
import { KEPT_FIELDS } from './fields.js';
import { DevicesDataCaches, getDevicesDataJson, withClientCode } from './index.js';

// docs/occupancies.md, "The readings carry the account of the period's end": a row's ClientCode is the
// account of the occupancy covering the period's last day, or the flat's current client without one.
describe(`GetDevicesData: the account of the period's end (${dbKind()})`, () => {
  const t = useDb();
  const caches = new DevicesDataCaches();
  let building: number;

  const rows = async (till: string) =>
    JSON.parse(
      (
        await getDevicesDataJson(
          t.db,
          {
            deviceTypeId: DEVICE_TYPE.allocator,
            range: { from: '2026-02-01', till },
            scope: null,
            parents: [building],
            timeZone: 'Europe/Vilnius',
            now: new Date('2026-03-15T00:00:00Z'),
          },
          caches,
        )
      ).json.toString(),
    ) as ReadingRow[];
  const codes = (found: ReadingRow[]) => Object.fromEntries(found.map((r) => [r.DeviceCode, r.ClientCode]));

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '7' });
    building = place.id;
    // Flat 1: a move on the 15th, from OLD-1 to NEW-1 ("Šarūnas", a name with non-ASCII letters), whose
    // client the flat carries today.
    const moved = await makeFlat(t.db, place, { name: '1', order: 1 });
    await makeOccupancy(t.db, moved, { clientCode: 'OLD-1', name: 'Ona', moveOut: '2026-02-15' });
    await makeOccupancy(t.db, moved, { clientCode: 'NEW-1"ą', name: 'Šarūnas', moveIn: '2026-02-15' });
    await t.db.query(`UPDATE location SET client_id = (SELECT id FROM client WHERE code = 'NEW-1"ą') WHERE id = $1`, [
      moved.id,
    ]);
    // Flat 2: no occupancy, a client of its own. Flat 3: one open occupancy of its client (the common case).
    const plain = await makeFlat(t.db, place, { name: '2', order: 2 });
    await t.db.query(`INSERT INTO client (code, name) VALUES ('PLAIN-2', 'Plain')`);
    await t.db.query(`UPDATE location SET client_id = (SELECT id FROM client WHERE code = 'PLAIN-2') WHERE id = $1`, [
      plain.id,
    ]);
    const open = await makeFlat(t.db, place, { name: '3', order: 3 });
    await makeOccupancy(t.db, open, { clientCode: 'OPEN-3', name: 'Open' });
    await t.db.query(`UPDATE location SET client_id = (SELECT id FROM client WHERE code = 'OPEN-3') WHERE id = $1`, [
      open.id,
    ]);
    for (const [flat, code] of [
      [moved, 'MOVED-A'],
      [moved, 'MOVED-B'],
      [plain, 'PLAIN'],
      [open, 'OPEN'],
    ] as const) {
      const id = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.allocator, code });
      await makeReadings(t.db, id, [
        ['2026-01-31T20:00:00+02:00', 10],
        ['2026-02-27T20:00:00+02:00', 14],
      ]);
    }
  });

  it("carries the old occupant's account before the move and the new one's from its day", async () => {
    const before = await rows('2026-02-14');
    expect(codes(before)).toEqual({ 'MOVED-A': 'OLD-1', 'MOVED-B': 'OLD-1', PLAIN: 'PLAIN-2', OPEN: 'OPEN-3' });
    const after = await rows('2026-02-15');
    expect(codes(after)).toEqual({ 'MOVED-A': 'NEW-1"ą', 'MOVED-B': 'NEW-1"ą', PLAIN: 'PLAIN-2', OPEN: 'OPEN-3' });
    // Asked again (the kept texts are reused): the same, and the patch left the kept text as it was.
    expect(codes(await rows('2026-02-28'))).toEqual(codes(after));
    expect(codes(await rows('2026-02-14'))).toEqual(codes(before));
    // Of the kept fields, only ClientCode differs.
    const kept = (found: ReadingRow[]) =>
      found.map((r) => KEPT_FIELDS.filter((f) => f.name !== 'ClientCode').map((f) => r[f.name]));
    expect(kept(after)).toEqual(kept(before));
  });

  it('writes the code as the kept text does: JSON, all ASCII, the other fields untouched', () => {
    const head = Buffer.from('{"DeviceId":1,"ObjectCode":"a\\\\","ClientCode":null,"DeviceCode":"X"', 'latin1');
    const patched = withClientCode(head, 'Ž"1').toString('latin1');
    expect(patched).toBe('{"DeviceId":1,"ObjectCode":"a\\\\","ClientCode":"\\u017d\\"1","DeviceCode":"X"');
    expect(JSON.parse(`${patched}}`)).toEqual({ DeviceId: 1, ObjectCode: 'a\\', ClientCode: 'Ž"1', DeviceCode: 'X' });
    expect(withClientCode(head, undefined)).toBe(head);
  });
});
