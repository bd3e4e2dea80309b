import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendDigests } from '../services/data-quality/digest.js';
import { validate } from '../services/data-quality/validate.js';
import { inject } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeDevice } from '../test/factories.js';
import { dayOfMonth, type LifetimeWorld, shift, useLifetimeWorld } from '../test/lifetime-world.js';
import { decodeMail, mailerFor, startSmtp } from '../test/smtp.js';

const w: LifetimeWorld = useLifetimeWorld();
const { t, id, setSetting, device, setVerified } = w;
let operator: LifetimeWorld['operator'];
let today: string;
let buildingA: number;
let flatA1: number;
beforeAll(() => {
  ({ operator, today, buildingA, flatA1 } = w);
});

describe(`devices over their lifetime: the rules and the overdue anomaly (${dbKind()})`, { timeout: 120_000 }, () => {
  describe('the rules, on hand-built devices', () => {
    it('gives a verification interval by type and level: flat water 6, flat heat 5, inlet water 2, building heat 5', async () => {
      expect((await device('coldA1')).VerificationDue).toBe('2026-03-15');
      expect((await device('heatA1')).VerificationDue).toBe('2026-05-10');
      expect((await device('inletA')).VerificationDue).toBe('2027-02-01');
      expect((await device('bhmA')).VerificationDue).toBe('2027-07-01');
      // An allocator is not verified.
      expect((await device('allocA1')).VerificationDue).toBeNull();
    });

    it('counts from the verification day, else from the installation day', async () => {
      await setVerified('heatA1', '2023-01-20');
      expect((await device('heatA1')).VerificationDue).toBe('2028-01-20');
      await setVerified('heatA1', null);
      expect((await device('heatA1')).VerificationDue).toBe('2026-05-10');
    });

    it('takes the interval from the setting', async () => {
      await setSetting('lifetime.verificationYears.flat', { 2: 5, 3: 4, 4: 6 });
      expect((await device('coldA1')).VerificationDue).toBe('2024-03-15');
      // The building-level interval of the same type is its own.
      expect((await device('inletA')).VerificationDue).toBe('2027-02-01');
      await setSetting('lifetime.verificationYears.flat', { 2: 5, 3: 6, 4: 6 });
    });

    it('runs to the end of that year under the end-of-year rule', async () => {
      await setSetting('lifetime.endOfYear', true);
      expect((await device('coldA1')).VerificationDue).toBe('2026-12-31');
      expect((await device('inletA')).VerificationDue).toBe('2027-12-31');
      await setSetting('lifetime.endOfYear', false);
      expect((await device('coldA1')).VerificationDue).toBe('2026-03-15');
    });

    it("ends an allocator's battery after its model's life, else the default", async () => {
      expect((await device('allocA1')).BatteryEnd).toBe('2026-06-01');
      await setSetting('lifetime.batteryYears', { default: 10, 'Q caloric 5.5': 8 });
      expect((await device('allocA1')).BatteryEnd).toBe('2024-06-01');
      await setSetting('lifetime.batteryYears', { default: 10 });
      expect((await device('coldA1')).BatteryEnd).toBeNull();
    });

    it('refuses settings of the wrong shape, naming the setting', async () => {
      for (const [key, value] of [
        ['lifetime.verificationYears.flat', { 3: 0 }],
        ['lifetime.batteryYears', { 'Q caloric 5.5': 8 }],
        ['lifetime.endOfYear', 'yes'],
        ['lifetime.remoteDays', 0],
      ] as const) {
        const res = await inject(t.app, contract.updateDqSetting, {
          params: { key },
          body: { value },
          token: operator.token,
        });
        expect(res.status, key).toBe(400);
      }
    });

    it('reads a device heard by a collector within the days set as remote, else as marked, else manual', async () => {
      const heard = (name: string, daysAgo: number) =>
        t.db.query(
          `INSERT INTO device_status (device_id, last_seen, telegram_ts) VALUES ($1, now() - make_interval(days => $2), now() - make_interval(days => $2))
           ON CONFLICT (device_id) DO UPDATE SET telegram_ts = excluded.telegram_ts`,
          [id[name], daysAgo],
        );
      await heard('coldA1', 10);
      await heard('allocA1', 40);
      await t.db.query(`UPDATE device SET read_method = 'walkby' WHERE id = $1`, [id.allocA1]);
      expect((await device('coldA1')).ReadNow).toBe('remote');
      expect((await device('allocA1')).ReadNow).toBe('walkby');
      expect((await device('heatA1')).ReadNow).toBe('manual');
      await setSetting('lifetime.remoteDays', 50);
      expect((await device('allocA1')).ReadNow).toBe('remote');
      await setSetting('lifetime.remoteDays', 30);
      expect((await device('allocA1')).ReadNow).toBe('walkby');
      // Marked remote by the device form: remote without a collector.
      const marked = await inject(t.app, contract.updateDevice, {
        params: { id: id.heatA1! },
        body: { readMethod: 'remote', verifiedOn: '2021-05-01' },
        token: operator.token,
      });
      expect(marked.status, marked.text).toBe(200);
      expect(marked.body).toMatchObject({ ReadMethod: 'remote', ReadNow: 'remote', VerifiedOn: '2021-05-01' });
      expect(marked.body.VerificationDue).toBe('2026-05-01');
    });

    it("counts a collector's CSV file as hearing the device, at its newest reading", async () => {
      id.csvNear = await makeDevice(t.db, flatA1, { code: 'CSV-NEAR', typeId: DEVICE_TYPE.coldWaterMeter });
      id.csvFar = await makeDevice(t.db, flatA1, { code: 'CSV-FAR', typeId: DEVICE_TYPE.coldWaterMeter });
      const daysAgo = (n: number) => `${new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 19)}Z`;
      const res = await inject(t.app, contract.importCsv, {
        token: operator.token,
        body: `serial;time;value\nCSV-NEAR;${daysAgo(45)};10\nCSV-NEAR;${daysAgo(5)};11\nCSV-FAR;${daysAgo(40)};20\n`,
        headers: { 'content-type': 'text/csv' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.Stored).toBe(3);
      // Within lifetime.remoteDays (30) by its newest reading; the other's newest is 40 days old.
      expect((await device('csvNear')).ReadNow).toBe('remote');
      expect((await device('csvFar')).ReadNow).toBe('manual');
      await setSetting('lifetime.remoteDays', 50);
      expect((await device('csvFar')).ReadNow).toBe('remote');
      await setSetting('lifetime.remoteDays', 30);
      await t.db.query('UPDATE device SET removed_at = now() WHERE id = ANY($1)', [[id.csvNear, id.csvFar]]);
    });

    it("starts the new device's dates with a replacement", async () => {
      const res = await inject(t.app, contract.replaceDevice, {
        params: { id: id.coldA1! },
        body: { replacedAt: `${today}T00:00:00`, finalReading: 10, newDeviceCode: 'CW-A1-NEW', initialReading: 0 },
        token: operator.token,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.New.VerifiedOn).toBe(today);
      expect(res.body.New.VerificationDue).toBe(shift(today, 6));
      // The old one was overdue; neither is due now.
      const due = await inject(t.app, contract.getDueDevices, {
        query: { buildingId: buildingA },
        token: operator.token,
      });
      expect(due.body.Rows.map((r) => r.DeviceCode)).not.toContain('CW-A1');
      expect(due.body.Rows.map((r) => r.DeviceCode)).not.toContain('CW-A1-NEW');
      // A device added with a verification day keeps it.
      const added = await inject(t.app, contract.addDevice, {
        body: {
          locationId: flatA1,
          deviceTypeId: DEVICE_TYPE.hotWaterMeter,
          deviceCode: 'HW-A1',
          installedAt: '2024-01-10T12:00:00',
          verifiedOn: '2023-09-01',
          readMethod: 'walkby',
        },
        token: operator.token,
      });
      expect(added.status, added.text).toBe(201);
      expect(added.body).toMatchObject({ VerifiedOn: '2023-09-01', VerificationDue: '2029-09-01', ReadNow: 'walkby' });
    });
  });

  describe('DEVICE_OVERDUE anomalies', () => {
    const overdue = async () => {
      const { rows } = await t.db.query<{ code: string; state: string; evidence: { dueDate: string; reason: string } }>(
        `SELECT d.device_code AS code, a.state, a.evidence FROM anomaly a JOIN device d ON d.id = a.device_id
          WHERE a.rule = 'DEVICE_OVERDUE' ORDER BY d.device_code, a.id`,
      );
      return rows;
    };

    it('opens one per device past its date, once, in the digest; a re-verification resolves it', async () => {
      await validate(t.db, null, new Date());
      await validate(t.db, null, new Date());
      const open = (await overdue()).filter((r) => r.state === 'open');
      // Past due today: B-OVERDUE (verification), HCA-A1 (battery), HM-A1 (verified 2021-05-01).
      expect(open.map((r) => [r.code, r.evidence.reason])).toEqual([
        ['B-OVERDUE', 'verification'],
        ['HCA-A1', 'battery'],
        ['HM-A1', 'verification'],
      ]);
      expect(open[0]!.evidence.dueDate).toBe(dayOfMonth(today, -1, 1));
      // The digest names it.
      await t.db.query(`UPDATE app_user SET email = 'ops@example.lt' WHERE id = $1`, [operator.id]);
      const on = await inject(t.app, contract.updateDigestSubscription, {
        token: operator.token,
        body: { optIn: true, language: 'en' },
      });
      expect(on.status, on.text).toBe(200);
      const smtp = await startSmtp();
      try {
        const mailer = mailerFor(smtp.port);
        await t.db.query(`UPDATE app_user SET digest_sent_at = now() - interval '1 hour' WHERE id = $1`, [operator.id]);
        await sendDigests(t.db, mailer, new Date(Date.now() + 1000));
        const mail = decodeMail(smtp.delivered.find((d) => d.to[0] === 'ops@example.lt')!.raw);
        expect(mail).toContain('Verification or battery overdue');
        expect(mail).toContain('B-OVERDUE');
      } finally {
        await smtp.close();
      }
      // Re-verified: resolved at the next run.
      const reverified = await inject(t.app, contract.updateDevice, {
        params: { id: id.overdueB! },
        body: { verifiedOn: today },
        token: operator.token,
      });
      expect(reverified.status).toBe(200);
      await validate(t.db, null, new Date());
      const after = await overdue();
      expect(after.filter((r) => r.state === 'open').map((r) => r.code)).toEqual(['HCA-A1', 'HM-A1']);
      expect(after.find((r) => r.code === 'B-OVERDUE')!.state).toBe('resolved');
    });
  });
});
