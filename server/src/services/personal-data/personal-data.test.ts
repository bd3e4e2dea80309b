import * as contract from '@rodmenys/contract';
import { ANONYMISED, DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/db.js';
import { JOBS } from '../../jobs.js';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../../test/factories.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { issueLetterCode, issueLink } from '../occupant-access/secrets.js';
import { anonymiseExpired, anonymiseOccupancy } from './anonymise.js';

// Personal data (docs/personal-data.md). Aldona lives in the flat from 2026-01-01 and moves out on
// 2026-03-15 (Bronius moves in): her last billed month is March 2026, so with the default retention
// of 36 months her personal data goes on 2029-04-01 (Europe/Vilnius, UTC+3 then).
const ALDONA = { name: 'Aldona Senoji', email: 'aldona.senoji@example.lt', phone: '+370 600 11111' };
/** Her phone before a correction: only the audit log still has it. */
const OLD_PHONE = '+370 699 99999';
const BRONIUS = { name: 'Bronius Naujasis', email: 'bronius@example.lt' };
const BEFORE_EXPIRY = new Date('2029-03-31T23:30:00+03:00');
const AFTER_EXPIRY = new Date('2029-04-01T00:30:00+03:00');

/** Every (table, column) of the database that holds text: text, varchar, char, json, jsonb, arrays. */
async function textColumns(db: Queryable): Promise<{ table: string; column: string }[]> {
  const { rows } = await db.query<{ table: string; column: string }>(
    `SELECT c.table_name AS table, c.column_name AS column
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED')
      ORDER BY 1, 2`,
  );
  return rows;
}

/** Where `value` is found (case aside) in any text column of any table: "table.column" per hit. */
async function findEverywhere(db: Queryable, value: string): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column } of await textColumns(db)) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table}" WHERE strpos(lower("${column}"::text), lower($1)) > 0`,
      [value],
    );
    if (rows[0]!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}

describe(`personal data: retention and access requests (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let admin: SignedIn;
  let user: SignedIn;
  let building: number;
  let flat: number;
  let aldona: number;
  let bronius: number;
  const figures = async () => {
    const out: unknown[] = [];
    for (const month of ['2026-01', '2026-02', '2026-03', '2026-04']) {
      const res = await inject(t.app, contract.getStatementFigures, {
        query: { month, locationParentId: [building] },
        token: operator.token,
      });
      expect(res.status).toBe(200);
      const split = await inject(t.app, contract.getOccupancyStatements, {
        params: { flatId: flat },
        query: { month },
        token: operator.token,
      });
      expect(split.status).toBe(200);
      out.push(res.body, split.body);
    }
    // The figures without the occupants' names, which is what anonymisation changes.
    return JSON.stringify(out, (key, value) => (key === 'Name' ? undefined : value));
  };

  beforeAll(async () => {
    const b = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '7' });
    building = b.id;
    flat = (await makeFlat(t.db, b, { name: '4', order: 1 })).id;
    const neighbour = await makeFlat(t.db, b, { name: '5', order: 2 });
    for (const [at, units] of [
      [flat, 0],
      [neighbour.id, 50],
    ] as const) {
      const cold = await makeDevice(t.db, at, {
        typeId: DEVICE_TYPE.coldWaterMeter,
        installedAt: '2025-01-01T00:00:00+02:00',
      });
      await makeReadings(t.db, cold, [
        ['2025-12-31T23:00:00+02:00', 100 + units],
        ['2026-01-31T23:00:00+02:00', 104 + units],
        ['2026-02-28T23:00:00+02:00', 108.5 + units],
        ['2026-03-14T23:30:00+02:00', 110 + units],
        ['2026-03-31T23:00:00+03:00', 113 + units],
        ['2026-04-30T23:00:00+03:00', 117.25 + units],
      ]);
    }
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [b.id] });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [b.id] });

    const moveIn = await inject(t.app, contract.recordMove, {
      params: { id: flat },
      body: {
        day: '2026-01-01',
        clientCode: 'R-1',
        ...ALDONA,
        phone: OLD_PHONE,
        language: 'lt',
        consentAt: '2026-01-01',
        consentChannel: 'email',
      },
      token: operator.token,
    });
    expect(moveIn.status, moveIn.text).toBe(201);
    aldona = moveIn.body.Occupancies.find((o) => o.ClientCode === 'R-1')!.Id;
    const moved = await inject(t.app, contract.recordMove, {
      params: { id: flat },
      body: { day: '2026-03-15', clientCode: 'R-2', ...BRONIUS },
      token: operator.token,
    });
    expect(moved.status, moved.text).toBe(201);
    bronius = moved.body.Occupancies.find((o) => o.ClientCode === 'R-2')!.Id;
    // A corrected phone: the old one stays in the audit log only.
    const fixed = await inject(t.app, contract.updateOccupancy, {
      params: { id: aldona },
      body: {
        clientCode: 'R-1',
        ...ALDONA,
        language: 'lt',
        consentAt: '2026-01-01',
        consentChannel: 'email',
        moveIn: '2026-01-01',
        moveOut: '2026-03-15',
      },
      token: operator.token,
    });
    expect(fixed.status, fixed.text).toBe(200);
    await refreshMonthEnds(t.db);
    // A moving-day value set by hand whose reason names her.
    const device = moved.body.Moves[0]!.Values[0]!;
    const set = await inject(t.app, contract.setMoveValue, {
      params: { deviceId: device.DeviceId, day: '2026-03-15' },
      body: { value: 110, reason: `Read on site with ${ALDONA.name}` },
      token: operator.token,
    });
    expect(set.status, set.text).toBe(200);
    // Her own access: a link and a letter code.
    await issueLink(t.db, aldona);
    await issueLetterCode(t.db, aldona);
    // February (her account) and March (both of them, frozen per occupant) published.
    for (const month of ['2026-02', '2026-03']) {
      const published = await inject(t.app, contract.publishStatements, {
        body: { month, locationIds: [building] },
        token: operator.token,
      });
      expect(published.status, published.text).toBe(200);
    }
    // Publishing queued her notices (she has an address and consent); one failed, and the SMTP
    // server's answer quoted her address (written here as the delivery job records a failure).
    const failed = await t.db.query(
      `UPDATE occupant_delivery SET status = 'failed', attempts = 1, error = $2
        WHERE id = (SELECT min(id) FROM occupant_delivery WHERE occupancy_id = $1)`,
      [aldona, `550 5.1.1 <${ALDONA.email}>: mailbox unavailable`],
    );
    expect(failed.rowCount).toBe(1);
  }, 120_000);

  describe('GET /api/occupancies/:id/personal-data', () => {
    it('gives group 1 everything kept about the occupant, and audits it', async () => {
      const res = await inject(t.app, contract.exportOccupantData, { params: { id: aldona }, token: operator.token });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="personal-data-${aldona}.json"`);
      const data = res.body;
      expect(data.Occupancies).toHaveLength(1);
      expect(data.Occupancies[0]).toMatchObject({
        Id: aldona,
        Name: ALDONA.name,
        Email: ALDONA.email,
        Phone: ALDONA.phone,
        MoveIn: '2026-01-01',
        MoveOut: '2026-03-15',
        ConsentAt: '2026-01-01',
        ConsentChannel: 'email',
        AnonymisedAt: null,
      });
      expect(data.Occupancies[0]!.Flat).toContain('Laisvės al.');
      expect(data.Account).toEqual({ ClientCode: 'R-1', ClientName: ALDONA.name });
      // Her months, hers only: March up to the 14th.
      expect(data.Statements.map((s) => [s.Month, s.From, s.Till])).toEqual([
        ['2026-01', '2026-01-01', '2026-01-31'],
        ['2026-02', '2026-02-01', '2026-02-28'],
        ['2026-03', '2026-03-01', '2026-03-14'],
      ]);
      expect(data.Statements[1]!.Kinds[0]!.Current.Value).toBe(4.5);
      expect(data.Moves.map((m) => m.Day)).toEqual(['2026-03-15']);
      expect(data.Moves[0]!.Values[0]).toMatchObject({ Source: 'manual', Value: 110 });
      // The audit entries about her occupancy and her account, the old phone among them.
      const kinds = data.AuditEntries.map((e) => e.Kind);
      expect(kinds).toEqual(expect.arrayContaining(['client.create', 'occupancy.create', 'occupancy.update']));
      expect(JSON.stringify(data.AuditEntries)).toContain(OLD_PHONE);
      expect(data.Access.map((a) => [a.OccupancyId, a.Kind, a.EndedAt])).toEqual(
        expect.arrayContaining([
          [aldona, 'link', null],
          [aldona, 'letterCode', null],
        ]),
      );
      expect(data.Deliveries.map((d) => [d.Month, d.Channel, d.Email])).toEqual([
        ['2026-02', 'email', ALDONA.email],
        ['2026-03', 'email', ALDONA.email],
      ]);
      expect(data.Deliveries[0]!.Error).toContain(ALDONA.email);
      // Nothing of Bronius.
      expect(res.text).not.toContain(BRONIUS.name);
      const log = await inject(t.app, contract.getAuditLog, {
        query: { kind: 'occupancy.export' },
        token: operator.token,
      });
      expect(log.body.Data[0]).toMatchObject({ Entity: 'occupancy', EntityId: String(aldona), ActorId: operator.id });
    });

    it('is refused to groups 2 and 3 (403), without a token (401), and for an unknown occupancy (404)', async () => {
      for (const token of [admin.token, user.token]) {
        const res = await inject(t.app, contract.exportOccupantData, { params: { id: aldona }, token });
        expect(res.status).toBe(403);
        expect(res.text).not.toContain(ALDONA.name);
      }
      expect((await inject(t.app, contract.exportOccupantData, { params: { id: aldona } })).status).toBe(401);
      const missing = await inject(t.app, contract.exportOccupantData, {
        params: { id: 2_000_000_000 },
        token: operator.token,
      });
      expect(missing.status).toBe(404);
    });
  });

  describe('PUT /api/data-quality/settings/personalData.retentionMonths', () => {
    it('takes whole months from 1 to 600 (group 1), refusing anything else with 400 naming the value', async () => {
      const put = (value: unknown, token = operator.token) =>
        inject(t.app, contract.updateDqSetting, {
          params: { key: 'personalData.retentionMonths' },
          body: { value },
          token,
        });
      for (const bad of [0, 1.5, 601, '36', null]) {
        const res = await put(bad);
        expect(res.status, String(bad)).toBe(400);
        expect(res.error.errors?.[0]?.field).toBe('value');
      }
      expect((await put(36, admin.token)).status).toBe(403);
      const ok = await put(36);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.Value).toBe(36);
    });
  });

  describe('the personal-data job', () => {
    const job = JOBS.find((j) => j.name === 'personal-data')!;
    const run = (now: Date) => job.run(t.db, now, { mailer: undefined });

    it('is declared, and changes nothing before the retention time', async () => {
      expect(job).toBeDefined();
      const before = await figures();
      const places = await findEverywhere(t.db, ALDONA.name);
      expect(await run(BEFORE_EXPIRY)).toEqual({ anonymised: 0, clients: 0 });
      expect(await findEverywhere(t.db, ALDONA.name)).toEqual(places);
      // She is copied into the occupancy, her account, the audit log, the frozen publications, the
      // billing export's frozen rows and a reason typed by hand: what the job must find.
      expect(places).toEqual(
        expect.arrayContaining([
          'occupancy.name',
          'client.name',
          'audit_log.after',
          'statement_snapshot.occupancies',
          'billing_snapshot.rows',
          'move_value.reason',
        ]),
      );
      expect(await findEverywhere(t.db, OLD_PHONE)).toEqual(['audit_log.after', 'audit_log.before']);
      expect(await findEverywhere(t.db, ALDONA.email)).toEqual(
        expect.arrayContaining(['occupancy.email', 'occupant_delivery.email', 'occupant_delivery.error']),
      );
      expect(await figures()).toBe(before);
    });

    it('after it, removes her name and contacts from every table; the figures stay; the log says so', async () => {
      const before = await figures();
      const { rows: auditBefore } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
      const secrets = `SELECT (SELECT count(*) FROM occupant_link WHERE occupancy_id = $1)
        + (SELECT count(*) FROM occupant_letter_code WHERE occupancy_id = $1) AS n`;
      expect(Number((await t.db.query<{ n: number }>(secrets, [aldona])).rows[0]!.n)).toBe(2);
      expect(await run(AFTER_EXPIRY)).toEqual({ anonymised: 1, clients: 1 });
      // Her secrets are gone: nothing opens her pages any more.
      expect(Number((await t.db.query<{ n: number }>(secrets, [aldona])).rows[0]!.n)).toBe(0);
      for (const value of [ALDONA.name, ALDONA.email, ALDONA.phone, OLD_PHONE])
        expect(await findEverywhere(t.db, value), value).toEqual([]);
      expect(await figures()).toBe(before);
      const { rows } = await t.db.query(
        'SELECT name, email, phone, language, consent_at, consent_channel, move_in::text, move_out::text FROM occupancy WHERE id = $1',
        [aldona],
      );
      expect(rows[0]).toEqual({
        name: ANONYMISED,
        email: null,
        phone: null,
        language: null,
        consent_at: null,
        consent_channel: null,
        move_in: '2026-01-01',
        move_out: '2026-03-15',
      });
      // The audit log keeps every entry (one more: the anonymisation), naming the occupancy only.
      const { rows: auditAfter } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
      expect(auditAfter[0]!.n).toBe(auditBefore[0]!.n + 1);
      const log = await inject(t.app, contract.getAuditLog, {
        query: { kind: 'occupancy.anonymise' },
        token: operator.token,
      });
      expect(log.body.Data).toHaveLength(1);
      expect(log.body.Data[0]).toMatchObject({
        Entity: 'occupancy',
        EntityId: String(aldona),
        ActorId: null,
        After: { Code: 'R-1', MoveIn: '2026-01-01', MoveOut: '2026-03-15', Anonymised: true },
      });
      // Bronius, still there, keeps everything.
      expect(await findEverywhere(t.db, BRONIUS.name)).toEqual(
        expect.arrayContaining(['occupancy.name', 'client.name']),
      );
      const flatView = await inject(t.app, contract.getFlatOccupancies, {
        params: { id: flat },
        token: operator.token,
      });
      expect(flatView.body.Occupancies.map((o) => o.Name)).toEqual([ANONYMISED, BRONIUS.name]);
      expect(flatView.body.Occupancies[1]!.Id).toBe(bronius);
    });

    it('is idempotent and safe to run twice at once', async () => {
      const count = async () =>
        (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
      const n = await count();
      const twice = await Promise.all([anonymiseExpired(t.db, AFTER_EXPIRY), anonymiseExpired(t.db, AFTER_EXPIRY)]);
      expect(twice).toEqual([
        { anonymised: 0, clients: 0 },
        { anonymised: 0, clients: 0 },
      ]);
      expect(await anonymiseOccupancy(t.db, aldona, AFTER_EXPIRY)).toBeNull();
      expect(await count()).toBe(n);
    });

    it('the audit log stays closed to any other change', async () => {
      await expect(t.db.query(`UPDATE audit_log SET kind = 'x'`)).rejects.toThrow(/append-only/);
      await expect(
        t.db.transaction(async (tx) => {
          await tx.query("SELECT set_config('rodmenys.audit_redaction', 'personal-data', true)");
          await tx.query(`UPDATE audit_log SET kind = 'x'`);
        }),
      ).rejects.toThrow(/append-only/);
      await expect(t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    });

    it('an access request after it holds no personal data', async () => {
      const res = await inject(t.app, contract.exportOccupantData, { params: { id: aldona }, token: operator.token });
      expect(res.status).toBe(200);
      expect(res.body.Occupancies[0]).toMatchObject({ Name: ANONYMISED, Email: null, Phone: null });
      expect(res.body.Occupancies[0]!.AnonymisedAt).not.toBeNull();
      expect(res.body.Account.ClientName).toBe(ANONYMISED);
      for (const value of [ALDONA.name, ALDONA.email, ALDONA.phone, OLD_PHONE]) expect(res.text).not.toContain(value);
      expect(res.body.Statements).toHaveLength(3);
      expect(res.body.Access).toEqual([]);
      // The delivery log keeps what was sent and when, not where to.
      expect(res.body.Deliveries.map((d) => [d.Month, d.Channel, d.Email])).toEqual([
        ['2026-02', 'email', null],
        ['2026-03', 'email', null],
      ]);
    });
  });
});
