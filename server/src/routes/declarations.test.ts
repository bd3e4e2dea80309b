import { crc32 } from 'node:zlib';
import * as contract from '@rodmenys/contract';
import { DECLARATION_PHOTO_MAX_BYTES, DEVICE_TYPE } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { issueLink } from '../services/occupant-access/secrets.js';
import { buildTestApp, inject, injectUrl } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings } from '../test/factories.js';
import { decodeMail, startSmtp } from '../test/smtp.js';

/*
 * Declaring on the occupant's pages over HTTP (docs/declared-readings.md): the window, the checks
 * against the previous value and the plausible maximum, photos by their content with the metadata
 * gone, another flat's device, and the receipt by e-mail. The rules over time (latest, same day,
 * replacement, month ends) are in services/declarations/declarations.test.ts.
 */

/** The provider's today (Vilnius), and a day of the month that is not today. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vilnius' }).format(new Date());
const otherDay = Number(today.slice(8, 10)) === 1 ? 2 : 1;

/** Mid-month readings of the 13 months before this one, 5 a month from `start`. */
function history(start: number): [string, number][] {
  const now = new Date();
  const out: [string, number][] = [];
  for (let back = 13; back >= 1; back--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 15, 10));
    out.push([d.toISOString(), start + (13 - back) * 5]);
  }
  return out;
}

describe(`declaring on the occupant's pages (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let water: number;
  let hot: number;
  let radio: number;
  let neighbours: number;
  let token: string;
  let neighbourToken: string;

  const setWindow = async (start: number, end: number) => {
    await db.query(`UPDATE dq_setting SET value = $1::jsonb WHERE key = 'declarations.windowStartDay'`, [
      String(start),
    ]);
    await db.query(`UPDATE dq_setting SET value = $1::jsonb WHERE key = 'declarations.windowEndDay'`, [String(end)]);
  };
  const list = (t = token) => inject(app, contract.getOccupantDeclarations, { token: t });
  const declare = (body: contract.DeclareBody, t = token) => inject(app, contract.declareReading, { body, token: t });
  const upload = (bytes: Buffer, type = 'image/jpeg') =>
    injectUrl<typeof contract.uploadOccupantPhoto>(app, 'POST', '/api/occupant/declarations/photos', {
      payload: bytes,
      headers: { 'content-type': type },
      token,
    });
  const session = async (occupancy: number) => {
    const res = await inject(app, contract.signInOccupantByLink, { body: { token: await issueLink(db, occupancy) } });
    expect(res.status, res.text).toBe(201);
    return res.body.Token;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    db = await createTestDb();
    app = await buildTestApp(db, { smtpUrl: smtp.url, publicUrl: 'https://rodmenys.example' });
    const building = await makeBuilding(db, { city: 'Vilnius', street: 'Žalgirio g.', number: '7' });
    const flat = await makeFlat(db, building, { name: '12', order: 12 });
    const other = await makeFlat(db, building, { name: '13', order: 13 });
    water = await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'DW-COLD' });
    hot = await makeDevice(db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'DW-HOT' });
    radio = await makeDevice(db, flat, { typeId: DEVICE_TYPE.heatMeter, code: 'DW-RADIO' });
    // An allocator read by hand is the provider's to read, not the occupant's.
    await makeDevice(db, flat, { typeId: DEVICE_TYPE.allocator, code: 'DW-ALLOCATOR' });
    await db.query(`UPDATE device SET read_method = 'remote' WHERE id = $1`, [radio]);
    neighbours = await makeDevice(db, other, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'DW-NEIGHBOUR' });
    await makeReadings(db, water, history(100));
    await makeReadings(db, hot, history(40));
    await makeReadings(db, radio, history(1000));
    await makeReadings(db, neighbours, history(300));
    await refreshMonthEnds(db, new Date());
    const mine = await makeOccupancy(db, flat, {
      name: 'Rūta Deklaruotoja',
      email: 'ruta@example.lt',
      language: 'en',
      consentAt: '2026-01-01',
      consentChannel: 'email',
    });
    const theirs = await makeOccupancy(db, other, { name: 'Kaimynas', email: 'kaimynas@example.lt' });
    token = await session(mine);
    neighbourToken = await session(theirs);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await smtp?.close();
  });
  beforeEach(() => setWindow(1, 31));

  it('lists the flat’s declared devices with the previous value, never a radio one', async () => {
    const res = await list();
    expect(res.status, res.text).toBe(200);
    expect(res.body.Window).toMatchObject({ Month: today.slice(0, 7), Open: true });
    expect(res.body.Devices.map((d) => d.DeviceCode)).toEqual(['DW-COLD', 'DW-HOT']);
    expect(res.text).not.toContain('DW-RADIO');
    expect(res.text).not.toContain('DW-ALLOCATOR');
    expect(res.text).not.toContain('DW-NEIGHBOUR');
    const cold = res.body.Devices[0]!;
    expect(cold.PreviousValue).toBe(160);
    // 3 × the largest monthly consumption (about 5), above the floor of 10.
    expect(cold.PlausibleMax! - 160).toBeGreaterThan(14);
    expect(cold.PlausibleMax! - 160).toBeLessThan(17);
  });

  it('says when the window opens outside it, and refuses a declaration there (409)', async () => {
    await setWindow(otherDay, otherDay);
    const res = await list();
    expect(res.body.Window.Open).toBe(false);
    expect(res.body.Window.Opens.slice(8)).toBe(String(otherDay).padStart(2, '0'));
    expect(res.body.Window.Opens > today).toBe(true);
    const refused = await declare({ deviceId: water, value: 161 });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.error.code).toBe('declarationWindowClosed');
    expect(refused.error.params?.opens).toBe(res.body.Window.Opens);
    const { rows } = await db.query('SELECT 1 FROM declaration');
    expect(rows).toHaveLength(0);
  });

  it('refuses a value below the previous one, naming the field (400)', async () => {
    const res = await declare({ deviceId: water, value: 159.5 });
    expect(res.status, res.text).toBe(400);
    expect(res.error.code).toBe('declarationBelowPrevious');
    expect(res.error.errors?.[0]).toMatchObject({ field: 'value', code: 'declarationBelowPrevious' });
    expect(res.error.params?.previous).toBe('160');
  });

  it('asks for confirmation above the plausible maximum; confirmed, it is doubtful and an anomaly opens', async () => {
    const max = (await list()).body.Devices[1]!.PlausibleMax!;
    const refused = await declare({ deviceId: hot, value: max + 1 });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.error.errors?.[0]).toMatchObject({ field: 'value', code: 'declarationNeedsConfirmation' });
    const ok = await declare({ deviceId: hot, value: max + 1, confirm: true });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.Declaration).toMatchObject({ Status: 'doubtful', Confirmed: true, Counts: true, PlausibleMax: max });
    const { rows } = await db.query<{ rule: string; state: string; evidence: { declarationId: number } }>(
      'SELECT rule, state, evidence FROM anomaly WHERE device_id = $1',
      [hot],
    );
    expect(rows).toEqual([
      expect.objectContaining({ rule: 'DECLARED_DOUBTFUL', state: 'open', evidence: expect.anything() }),
    ]);
    expect(rows[0]!.evidence.declarationId).toBe(ok.body.Declaration.Id);
    expect(Object.keys(rows[0]!.evidence).sort()).toEqual(['declarationId', 'max', 'photoId', 'previous', 'value']);
  });

  it('stores a plausible value as accepted, with an on-screen and an e-mail receipt in the occupant’s language', async () => {
    const before = smtp.delivered.length;
    const res = await declare({ deviceId: water, value: 163.25 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ DeviceCode: 'DW-COLD', Emailed: true });
    expect(res.body.Declaration).toMatchObject({
      Value: 163.25,
      Status: 'accepted',
      Channel: 'occupant',
      Counts: true,
    });
    expect(smtp.delivered).toHaveLength(before + 1);
    const mail = decodeMail(smtp.delivered.at(-1)!.raw);
    expect(smtp.delivered.at(-1)!.to).toEqual(['ruta@example.lt']);
    expect(mail).toContain('declared reading received (DW-COLD)');
    expect(mail).toContain('Reading: 163.25');
    expect(mail).toContain('Žalgirio g.');
    // The reading is stored, and shows on the page as this window's declaration.
    const { rows } = await db.query<{ value: string }>(
      'SELECT value::text FROM reading WHERE device_id = $1 ORDER BY ts DESC LIMIT 1',
      [water],
    );
    expect(rows[0]!.value).toBe('163.25');
    expect((await list()).body.Devices[0]!.Declarations.map((d) => d.Value)).toContain(163.25);
  });

  it('answers 404 for another flat’s device and for a radio device, storing nothing', async () => {
    const count = async () => (await db.query('SELECT 1 FROM declaration')).rows.length;
    const n = await count();
    for (const deviceId of [neighbours, radio, 2_000_000_000]) {
      const res = await declare({ deviceId, value: 2000 });
      expect(res.status, res.text).toBe(404);
    }
    // The neighbour cannot declare this flat's meter either.
    expect((await declare({ deviceId: water, value: 170 }, neighbourToken)).status).toBe(404);
    expect(await count()).toBe(n);
  });

  it('refuses values as text, negative and 1e308 (400 naming the field)', async () => {
    for (const value of ['one hundred seventy', -1, 1e308] as unknown[]) {
      const res = await declare({ deviceId: water, value } as contract.DeclareBody);
      expect(res.status, res.text).toBe(400);
      expect(res.error.errors?.[0]?.field).toBe('value');
    }
  });

  describe('photos', () => {
    const png = () =>
      sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 120, b: 200 } } })
        .png()
        .toBuffer();

    it('takes the type from the content: a PNG sent as a JPEG is stored as a PNG', async () => {
      const res = await upload(await png(), 'image/jpeg');
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ Mime: 'image/png', Width: 40, Height: 30 });
      const ok = await declare({ deviceId: water, value: 164, photoId: res.body.PhotoId });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.Declaration.PhotoId).toBe(res.body.PhotoId);
    });

    it('refuses a text file sent as a JPEG, and a truncated image (400)', async () => {
      const text = await upload(Buffer.from('not a photo at all, just text pretending\n'.repeat(20)), 'image/jpeg');
      expect(text.status, text.text).toBe(400);
      expect(text.error.code).toBe('photoNotImage');
      const whole = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer();
      const cut = await upload(whole.subarray(0, 200));
      expect(cut.status, cut.text).toBe(400);
      expect(cut.error.code).toBe('photoNotImage');
    });

    it('refuses a photo over 5 MB with 413 and a clear code', async () => {
      const big = Buffer.concat([await png(), Buffer.alloc(DECLARATION_PHOTO_MAX_BYTES)]);
      const res = await upload(big, 'image/png');
      expect(res.status, res.text).toBe(413);
      expect(['photoTooLarge', 'bodyTooLarge']).toContain(res.error.code);
    });

    it('refuses a decompression bomb before decoding it (400)', async () => {
      // A small PNG whose header says 20,000 × 20,000 pixels (its checksum made right).
      const bomb = Buffer.from(await png());
      bomb.writeUInt32BE(20_000, 16);
      bomb.writeUInt32BE(20_000, 20);
      bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
      expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(20_000);
      const res = await upload(bomb, 'image/png');
      expect(res.status, res.text).toBe(400);
      expect(res.error.code).toBe('photoTooManyPixels');
    });

    it('strips the metadata: a JPEG with EXIF and GPS in, none in the stored file', async () => {
      const withGps = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
        .jpeg()
        .withExif({
          IFD0: { Make: 'SpyCam' },
          IFD3: {
            GPSLatitudeRef: 'N',
            GPSLatitude: '54/1 41/1 1234/100',
            GPSLongitudeRef: 'E',
            GPSLongitude: '25/1 16/1 0/1',
          },
        })
        .toBuffer();
      expect((await sharp(withGps).metadata()).exif?.toString('latin1')).toContain('SpyCam');
      const res = await upload(withGps);
      expect(res.status, res.text).toBe(201);
      const { rows } = await db.query<{ bytes: Uint8Array; mime: string }>(
        'SELECT bytes, mime FROM declaration_photo WHERE id = $1',
        [res.body.PhotoId],
      );
      const stored = Buffer.from(rows[0]!.bytes);
      expect(rows[0]!.mime).toBe('image/jpeg');
      expect((await sharp(stored).metadata()).exif).toBeUndefined();
      expect(stored.toString('latin1')).not.toContain('SpyCam');
      expect(stored.toString('latin1')).not.toContain('Exif\u0000');
    });

    it('does not let another occupancy use the photo (404)', async () => {
      const res = await upload(await png());
      const theirs = await declare({ deviceId: neighbours, value: 361, photoId: res.body.PhotoId }, neighbourToken);
      expect(theirs.status, theirs.text).toBe(404);
    });
  });
});
