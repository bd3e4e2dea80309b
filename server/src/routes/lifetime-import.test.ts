import * as contract from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { type LifetimeWorld, useLifetimeWorld } from '../test/lifetime-world.js';

const w: LifetimeWorld = useLifetimeWorld();
const { t } = w;
let operator: LifetimeWorld['operator'];
beforeAll(() => {
  ({ operator } = w);
});

describe(`devices over their lifetime: the register import (${dbKind()})`, { timeout: 120_000 }, () => {
  describe('POST /masterData/register/apply: VerifiedOn and ReadMethod', () => {
    const file = (rows: string[][]) => {
      const header = ['Country', 'County', 'Region', 'City', 'Street', 'Building', 'Flat', 'ObjectCode', 'ClientCode'];
      const head = [...header, 'DeviceType', 'DeviceCode', 'InstalledAt', 'VerifiedOn', 'ReadMethod'];
      const address = [
        'Lietuva',
        'Kauno apskritis',
        'Kauno m. sav.',
        'Kaunas',
        'Ąžuolų g.',
        '9',
        '1',
        'OBJ-9',
        'CL-9-1',
      ];
      return Buffer.from([head, ...rows.map((r) => [...address, ...r])].map((r) => r.join(';')).join('\r\n'), 'utf8');
    };
    const send = (rows: string[][]) =>
      inject(t.app, contract.applyRegisterImport, {
        token: operator.token,
        payload: file(rows),
        headers: { 'content-type': 'text/csv' },
      });

    it('stores the verification day and the read method, and refuses a bad one naming the column', async () => {
      const bad = await send([
        ['CWM', 'IMP-1', '2024-01-10', '2023-13-01', 'walkby'],
        ['CWM', 'IMP-2', '2024-01-10', '2023-09-01', 'pigeon'],
      ]);
      expect(bad.status, bad.text).toBe(200);
      expect(bad.body.Applied).toBe(false);
      expect(bad.body.Errors.map((e) => [e.Line, e.Code, e.Params.column])).toEqual([
        [2, 'INVALID_DATE', 'VerifiedOn'],
        [3, 'INVALID_CHOICE', 'ReadMethod'],
      ]);
      const good = await send([
        ['CWM', 'IMP-1', '2024-01-10', '2023-09-01', 'WalkBy'],
        ['CWM', 'IMP-2', '2024-01-10', '', ''],
      ]);
      expect(good.body.Applied, JSON.stringify(good.body.Errors)).toBe(true);
      const { rows } = await t.db.query<{ code: string; verified: string | null; method: string | null; due: string }>(
        `SELECT d.device_code AS code, to_char(d.verified_on, 'YYYY-MM-DD') AS verified, d.read_method AS method,
                to_char(verification_due(d.device_type_id, l.level, coalesce(d.verified_on, d.installed_at::date)), 'YYYY-MM-DD') AS due
           FROM device d JOIN location l ON l.id = d.location_id WHERE d.device_code LIKE 'IMP-%' ORDER BY 1`,
      );
      expect(rows).toEqual([
        { code: 'IMP-1', verified: '2023-09-01', method: 'walkby', due: '2029-09-01' },
        { code: 'IMP-2', verified: null, method: null, due: '2030-01-10' },
      ]);
      // An empty cell keeps what is stored; a new day changes it.
      const again = await send([
        ['CWM', 'IMP-1', '2024-01-10', '', ''],
        ['CWM', 'IMP-2', '2024-01-10', '2024-01-05', 'manual'],
      ]);
      expect(again.body.Devices).toMatchObject({ Changed: 1, Unchanged: 1 });
    });
  });
});
