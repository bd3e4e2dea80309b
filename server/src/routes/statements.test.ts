import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import { unzipSync } from 'fflate';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { Mailer } from '../services/mail/index.js';
import { markMailNotConfigured, sendStatementMails } from '../services/statements/notify.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';
import { decodeMail, startSmtp } from '../test/smtp.js';

const NOW = new Date('2026-11-20T10:00:00Z');
const MONTH = '2026-10';
const t = useApp();
const dir = mkdtempSync(path.join(tmpdir(), 'statements-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The text of a PDF as poppler's pdftotext extracts it (layout kept). */
function pdfText(bytes: Uint8Array, name = 'file.pdf'): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe(`statements over HTTP: scope, PDF, publication e-mail (${dbKind()})`, () => {
  let manager: SignedIn;
  let operator: SignedIn;
  let other: SignedIn;
  let flatA: number;
  let flatB: number;
  let buildingA: number;
  beforeAll(async () => {
    const a = await makeBuilding(t.db, { city: 'Panevėžys', street: 'Žalioji g.', number: '5' });
    const b = await makeBuilding(t.db, { city: 'Panevėžys', street: 'Žalioji g.', number: '6' });
    buildingA = a.id;
    for (const [building, units] of [
      [a, 120],
      [b, 80],
    ] as const) {
      const flat = await makeFlat(t.db, building, { name: '12', order: 1 });
      if (building === a) flatA = flat.id;
      else flatB = flat.id;
      await t.db.query('UPDATE location SET area_m2 = 61.5 WHERE id = $1', [flat.id]);
      const hca = await makeDevice(t.db, flat, {
        typeId: contract.DEVICE_TYPE.allocator,
        ratingFactor: 1.25,
        installedAt: '2025-01-01T00:00:00+02:00',
      });
      await makeReadings(t.db, hca, [
        ['2025-09-30T23:00:00+03:00', 0],
        ['2025-10-31T22:00:00+02:00', 100],
        ['2026-09-30T23:00:00+03:00', 500],
        ['2026-10-31T22:00:00+02:00', 500 + units],
      ]);
      const hot = await makeDevice(t.db, flat, {
        typeId: contract.DEVICE_TYPE.hotWaterMeter,
        installedAt: '2025-01-01T00:00:00+02:00',
      });
      await makeReadings(t.db, hot, [
        ['2025-09-30T23:00:00+03:00', 10],
        ['2025-10-31T22:00:00+02:00', 12.5],
        ['2026-09-30T23:00:00+03:00', 40],
        ['2026-10-31T22:00:00+02:00', 43.125],
      ]);
      const meter = await makeDevice(t.db, building, { typeId: contract.DEVICE_TYPE.buildingHeatMeter });
      await makeReadings(t.db, meter, [
        ['2025-09-30T23:00:00+03:00', 0],
        ['2025-10-31T22:00:00+02:00', 900],
        ['2026-09-30T23:00:00+03:00', 10_000],
        ['2026-10-31T22:00:00+02:00', 11_234.567],
      ]);
    }
    await refreshMonthEnds(t.db, NOW);
    manager = await makeSignedIn(t.app, { groupId: contract.GROUP.user, rights: [a] });
    other = await makeSignedIn(t.app, { groupId: contract.GROUP.user, rights: [b] });
    operator = await makeSignedIn(t.app, { groupId: contract.GROUP.operator });
  }, 120_000);

  it('answers a manager the flats of their buildings only; another flat is 404', async () => {
    const res = await inject(t.app, contract.getStatementFigures, { query: { month: MONTH }, token: manager.token });
    expect(res.status).toBe(200);
    expect(res.body.Rows.map((r) => r.FlatId)).toEqual([flatA]);
    const heating = res.body.Rows[0]!.Kinds.find((k) => k.Kind === 'heating')!;
    // The only allocator flat of its building gets all of the building meter's 1,234.567 kWh.
    expect(heating).toMatchObject({ Unit: 'kWh', Units: 120, Qrad: 150, KwhMethod: 'buildingMeterByQrad' });
    expect(heating.Current.Value).toBe(1234.567);
    const mine = await inject(t.app, contract.getFlatStatement, {
      params: { flatId: flatA },
      query: { month: MONTH },
      token: manager.token,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.History[0]!.Months).toHaveLength(13);
    const theirs = await inject(t.app, contract.getFlatStatement, {
      params: { flatId: flatB },
      query: { month: MONTH },
      token: manager.token,
    });
    expect(theirs.status).toBe(404);
  });

  it('prints one building as a PDF whose text holds the names, the month and the numbers, Lithuanian letters intact', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/statements/pdf?month=${MONTH}&lang=lt`,
      headers: { authorization: `Bearer ${manager.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename=".*\.pdf"/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload, 'lt.pdf');
    expect(text).toContain('Mėnesio suvartojimo ataskaita');
    expect(text).toContain('2026 m. spalio mėn.');
    expect(text).toContain('Panevėžys, Žalioji g. 5, butas 12');
    expect(text).toMatch(/Šildymas\s+Karštas vanduo/);
    expect(text).toMatch(/kWh\s+m³/);
    // 1 234,567 kWh (Lithuanian digit grouping), 3,125 m³ of hot water, last year 2,500.
    expect(text.replace(/\s/g, ' ')).toMatch(/1\s?234,567/);
    expect(text).toContain('3,125');
    expect(text).toContain('2,500');
    expect(text).toContain('pastato šilumos skaitiklio energija');
    // Last month's values are interpolated between the readings: marked `*` and explained.
    expect(text).toMatch(/Praėjęs mėnuo\s+816,230 \*\s+2,467 \*/);
    expect(text).toContain('* – interpoliuota tarp rodmenų');
    // The bars' labels and the footer (page of the building's file).
    expect(text).toMatch(/pernai\s+šis mėn\.\s+vidurkis/);
    expect(text).toMatch(/Rodmenys · sudaryta \d{4}-\d{2}-\d{2} · 1 \/ 1/);
    const en = await t.app.inject({
      method: 'GET',
      url: `/api/statements/pdf?month=${MONTH}&lang=en`,
      headers: { authorization: `Bearer ${manager.token}` },
    });
    const enText = pdfText(en.rawPayload, 'en.pdf');
    expect(enText).toContain('Monthly consumption statement');
    expect(enText).toContain('October 2026');
    expect(enText).toContain('1,234.567');
    expect(enText).toMatch(/Heating\s+Hot water/);
    expect(enText).toMatch(/Previous month\s+816\.230 \*\s+2\.467 \*/);
    expect(enText).toContain('* – interpolated between readings');
  });

  it('answers several buildings as a zip of one PDF per building', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/statements/pdf?month=${MONTH}&lang=en`,
      headers: { authorization: `Bearer ${operator.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const names = Object.keys(files).filter((n) => n.includes('Panevezys'));
    expect(names).toHaveLength(2);
    const texts = names.map((n, i) => pdfText(files[n]!, `zip${i}.pdf`));
    expect(texts[0]).toContain('Žalioji g. 5');
    expect(texts[1]).toContain('Žalioji g. 6');
  });

  it('e-mails each opted-in user whose scope holds a published flat, once, and logs every delivery', async () => {
    const smtp = await startSmtp({ reject: /^bounce@/ });
    try {
      await t.db.query("UPDATE app_user SET email = 'manager@example.lt' WHERE id = $1", [manager.id]);
      await t.db.query("UPDATE app_user SET email = 'other@example.lt' WHERE id = $1", [other.id]);
      const optIn = await inject(t.app, contract.updateStatementNotification, {
        body: { optIn: true, language: 'lt' },
        token: manager.token,
      });
      expect(optIn.body).toMatchObject({ OptIn: true, Email: 'manager@example.lt' });
      await inject(t.app, contract.updateStatementNotification, {
        body: { optIn: true, language: 'en' },
        token: other.token,
      });
      // A manager of building A whose mailbox refuses mail.
      const bouncing = await makeSignedIn(t.app, { groupId: contract.GROUP.user, rights: [buildingA] });
      await t.db.query("UPDATE app_user SET email = 'bounce@example.lt', statement_opt_in = true WHERE id = $1", [
        bouncing.id,
      ]);

      const published = await inject(t.app, contract.publishStatements, {
        body: { month: MONTH, locationIds: [buildingA] },
        token: operator.token,
      });
      expect(published.status).toBe(200);
      expect(published.body).toMatchObject({ Buildings: 1, Flats: 1, Republished: 0 });

      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        ignoreTLS: true,
      });
      const mailer = new Mailer(transport, 'rodmenys@example.lt', 'https://rodmenys.example.lt');
      const result = await sendStatementMails(t.db, mailer);
      expect(result).toEqual({ sent: 1, failed: 1 });
      // Only building A was published: the manager of B gets nothing.
      expect(smtp.delivered.map((d) => d.to)).toEqual([['manager@example.lt']]);
      const mail = decodeMail(smtp.delivered[0]!.raw);
      expect(mail).toContain('Rodmenys: paskelbtos 2026 m. spalio mėn. suvartojimo ataskaitos');
      expect(mail).toContain('https://rodmenys.example.lt/statements?month=2026-10');
      // Sent once: the queue is empty now.
      expect(await sendStatementMails(t.db, new Mailer(transport, 'x@example.lt', 'https://x'))).toEqual({
        sent: 0,
        failed: 0,
      });

      const log = await inject(t.app, contract.listStatementDeliveries, {
        query: { month: MONTH },
        token: operator.token,
      });
      expect(log.status).toBe(200);
      const byMail = Object.fromEntries(log.body.Deliveries.map((d) => [d.Email, d]));
      expect(byMail['manager@example.lt']).toMatchObject({ Accepted: true, Error: null, Month: MONTH });
      expect(byMail['bounce@example.lt']).toMatchObject({ Accepted: false });
      expect(byMail['bounce@example.lt']!.Error).toMatch(/550|unavailable/);
      expect(byMail['other@example.lt']).toBeUndefined();

      // The figures of A are now the published ones.
      const figures = await inject(t.app, contract.getStatementFigures, {
        query: { month: MONTH },
        token: manager.token,
      });
      expect(figures.body.Rows[0]!.Published).toMatchObject({ Version: 1, BuildingId: buildingA });
      // Who published it: for the operators only (their accounts are outside a manager's scope).
      expect(figures.body.Rows[0]!.Published!.PublishedBy).toBeNull();
      const flat = await inject(t.app, contract.getFlatStatement, {
        params: { flatId: figures.body.Rows[0]!.FlatId },
        query: { month: MONTH },
        token: manager.token,
      });
      expect(flat.body.Row.Published!.PublishedBy).toBeNull();
      expect(flat.text).not.toContain(operator.username);
      const asOperator = await inject(t.app, contract.getStatementFigures, {
        query: { month: MONTH, locationParentId: String(buildingA) },
        token: operator.token,
      });
      expect(asOperator.body.Rows[0]!.Published!.PublishedBy).toBe(operator.username);
    } finally {
      await smtp.close();
    }
  });

  it('publishing again with no figure changed makes no version and no e-mail, unless asked explicitly', async () => {
    const again = await inject(t.app, contract.publishStatements, {
      body: { month: MONTH, locationIds: [buildingA] },
      token: operator.token,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ Buildings: 0, Flats: 0, Republished: 0, Unchanged: 1, Changes: [] });
    const { rows } = await t.db.query<{ versions: number; queued: number }>(
      `SELECT (SELECT count(*)::int FROM statement_publication WHERE building_id = $1) AS versions,
              (SELECT count(*)::int FROM statement_delivery WHERE sent_at IS NULL) AS queued`,
      [buildingA],
    );
    expect(rows[0]).toEqual({ versions: 1, queued: 0 });
    const figures = await inject(t.app, contract.getStatementFigures, {
      query: { month: MONTH },
      token: manager.token,
    });
    expect(figures.body.Rows[0]!.Published).toMatchObject({ Version: 1 });
  });

  it('a month that has not ended cannot be published, and says so by the field', async () => {
    // This month where the product keeps time (not a fixed month: one that has ended by the day the test runs would publish).
    const thisMonth = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Vilnius',
      year: 'numeric',
      month: '2-digit',
    })
      .format(new Date())
      .slice(0, 7);
    for (const month of [thisMonth, '2099-01']) {
      const res = await inject(t.app, contract.publishStatements, { body: { month }, token: operator.token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'monthNotEndedStatements' });
    }
  });

  it('without a mail server, a queued e-mail is logged as not sent, with the reason', async () => {
    // Asked explicitly: a new version of unchanged figures, and its e-mails.
    const forced = await inject(t.app, contract.publishStatements, {
      body: { month: MONTH, locationIds: [buildingA], force: true },
      token: operator.token,
    });
    expect(forced.body).toMatchObject({ Buildings: 1, Republished: 1, Unchanged: 0 });
    expect(await markMailNotConfigured(t.db)).toEqual({ notConfigured: 2 });
    const log = await inject(t.app, contract.listStatementDeliveries, { query: {}, token: operator.token });
    expect(log.body.MailConfigured).toBe(false);
    expect(log.body.Deliveries.filter((d) => d.Error === 'SMTP_URL is not set')).toHaveLength(2);
  });

  it('refuses to publish a month that has not ended, naming the field', async () => {
    const res = await inject(t.app, contract.publishStatements, {
      body: { month: '2099-01' },
      token: operator.token,
    });
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ code: 'monthNotEndedStatements', params: { month: '2099-01', field: 'month' } });
  });

  it('opting in needs an e-mail address', async () => {
    const res = await inject(t.app, contract.updateStatementNotification, {
      body: { optIn: true, language: 'en' },
      token: operator.token,
    });
    expect(res.status).toBe(400);
    expect(res.error.code).toBe('emailRequiredForStatements');
  });
});
