import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import {
  makeBuilding,
  makeDevice,
  makeFlat,
  makeOccupancy,
  makeReadings,
  makeSignedIn,
  type SignedIn,
} from '../../test/factories.js';
import { declare } from '../declarations/declare.js';
import { cleanPhoto, storePhoto } from '../declarations/photo.js';

/*
 * Declared readings in an access request (docs/personal-data.md): the occupant's declarations, who
 * entered them, and the photos they sent, byte for byte; a predecessor's declaration of the same
 * meter and a neighbour's are not theirs.
 */

const t = useApp();
const vilnius = (local: string) => new Date(`${local}+03:00`);
const photo = (background: string) =>
  sharp({ create: { width: 12, height: 9, channels: 3, background } })
    .jpeg()
    .toBuffer()
    .then(cleanPhoto);

describe(`an access request with declared readings (${dbKind()})`, { timeout: 120_000 }, () => {
  let operator: SignedIn;
  let admin: SignedIn;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Deklaracijų g.', number: '36' });
    const flat = await makeFlat(t.db, building, { name: '3', order: 3 });
    const neighbourFlat = await makeFlat(t.db, building, { name: '4', order: 4 });
    id.water = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'EXP-COLD' });
    id.neighbourWater = await makeDevice(t.db, neighbourFlat, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      code: 'EXP-NEIGHBOUR',
    });
    await t.db.query(`UPDATE device SET read_method = 'manual' WHERE id = ANY ($1::int[])`, [
      [id.water, id.neighbourWater],
    ]);
    await makeReadings(t.db, id.water, [['2026-05-15T12:00:00+03:00', 100]]);
    await makeReadings(t.db, id.neighbourWater, [['2026-05-15T12:00:00+03:00', 300]]);
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building.id] });

    // The predecessor declares the same meter in June (by phone) with a photo of their own.
    id.before = await makeOccupancy(t.db, flat, { name: 'Petras Ankstesnis', moveOut: '2026-07-01' });
    const before = await inject(t.app, contract.enterPhoneDeclaration, {
      token: admin.token,
      body: { deviceId: id.water, value: 105, day: '2026-06-25', callerName: 'Petras Ankstesnis' },
    });
    expect(before.status, before.text).toBe(201);
    id.beforeDeclaration = before.body.Id;
    id.beforePhoto = await storePhoto(t.db, id.before, await photo('#aa0000'));

    // Our occupant: one declaration on their pages with a photo (July), one by phone (August).
    id.mine = await makeOccupancy(t.db, flat, {
      name: 'Jūratė Deklaruotoja',
      clientCode: 'EXP-1',
      email: 'jurate@example.lt',
      moveIn: '2026-07-01',
    });
    const mine = await photo('#00aa00');
    id.photo = await storePhoto(t.db, id.mine, mine);
    const july = await declare(
      t.db,
      { occupancyId: id.mine, sessionId: null },
      { deviceId: id.water, value: 108.25, photoId: id.photo },
      vilnius('2026-07-25T09:30:00'),
    );
    id.july = july.Declaration.Id;
    const august = await inject(t.app, contract.enterPhoneDeclaration, {
      token: admin.token,
      body: {
        deviceId: id.water,
        value: 111.5,
        day: '2026-08-24',
        callerName: 'Jūratė Deklaruotoja',
        callerPhone: '+370 600 36036',
      },
    });
    expect(august.status, august.text).toBe(201);
    id.august = august.body.Id;

    // The neighbour declares in July with a photo.
    id.neighbour = await makeOccupancy(t.db, neighbourFlat, { name: 'Kaimynė Kita' });
    id.neighbourPhoto = await storePhoto(t.db, id.neighbour, await photo('#0000aa'));
    const theirs = await declare(
      t.db,
      { occupancyId: id.neighbour, sessionId: null },
      { deviceId: id.neighbourWater, value: 303, photoId: id.neighbourPhoto },
      vilnius('2026-07-25T10:00:00'),
    );
    id.neighbourDeclaration = theirs.Declaration.Id;
  });

  it('holds both of their declarations with who entered them, and their photo byte for byte', async () => {
    const res = await inject(t.app, contract.exportOccupantData, { params: { id: id.mine! }, token: operator.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.Declarations).toEqual([
      expect.objectContaining({
        OccupancyId: id.mine,
        Id: id.july,
        DeviceId: id.water,
        DeviceCode: 'EXP-COLD',
        Value: 108.25,
        Month: '2026-07',
        Channel: 'occupant',
        EnteredBy: null,
        CallerName: null,
        PhotoId: id.photo,
        Status: 'accepted',
        Reason: null,
        PreviousValue: 105,
        Counts: true,
      }),
      expect.objectContaining({
        OccupancyId: id.mine,
        Id: id.august,
        Value: 111.5,
        Month: '2026-08',
        Channel: 'phone',
        EnteredBy: admin.username,
        CallerName: 'Jūratė Deklaruotoja',
        CallerPhone: '+370 600 36036',
        PhotoId: null,
        Status: 'accepted',
        PreviousValue: 108.25,
        Counts: true,
      }),
    ]);
    expect(new Date(res.body.Declarations[0]!.DeclaredAt).toISOString()).toBe('2026-07-25T06:30:00.000Z');
    expect(res.body.Declarations[0]!.Flat).toContain('Deklaracijų g. 36');

    const { rows } = await t.db.query<{ bytes: Uint8Array }>('SELECT bytes FROM declaration_photo WHERE id = $1', [
      id.photo,
    ]);
    const stored = Buffer.from(rows[0]!.bytes);
    expect(res.body.DeclarationPhotos).toHaveLength(1);
    const [exported] = res.body.DeclarationPhotos;
    expect(exported).toMatchObject({ OccupancyId: id.mine, Id: id.photo, Mime: 'image/jpeg', Width: 12, Height: 9 });
    const bytes = Buffer.from(exported!.Base64, 'base64');
    expect(bytes.length).toBeGreaterThan(100);
    expect(bytes.equals(stored)).toBe(true);
    expect((await sharp(bytes).metadata()).format).toBe('jpeg');
  });

  it('holds no other occupancy’s declaration or photo: not the predecessor’s of the same meter, nor the neighbour’s', async () => {
    const res = await inject(t.app, contract.exportOccupantData, { params: { id: id.mine! }, token: operator.token });
    expect(res.status, res.text).toBe(200);
    const declarationIds = res.body.Declarations.map((d) => d.Id);
    expect(declarationIds).not.toContain(id.beforeDeclaration);
    expect(declarationIds).not.toContain(id.neighbourDeclaration);
    const photoIds = res.body.DeclarationPhotos.map((p) => p.Id);
    expect(photoIds).not.toContain(id.beforePhoto);
    expect(photoIds).not.toContain(id.neighbourPhoto);
    expect(res.text).not.toContain('Petras Ankstesnis');
    expect(res.text).not.toContain('EXP-NEIGHBOUR');

    // The predecessor's own request holds theirs, and not ours.
    const theirs = await inject(t.app, contract.exportOccupantData, {
      params: { id: id.before! },
      token: operator.token,
    });
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.Declarations.map((d) => [d.Id, d.Value, d.CallerName])).toEqual([
      [id.beforeDeclaration, 105, 'Petras Ankstesnis'],
    ]);
    expect(theirs.body.DeclarationPhotos.map((p) => p.Id)).toEqual([id.beforePhoto]);
  });
});
