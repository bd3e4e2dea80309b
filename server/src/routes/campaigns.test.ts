import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import { type CampaignDetail, DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeSignedIn, type SignedIn } from '../test/factories.js';
import { decodeMail, startSmtp } from '../test/smtp.js';

/*
 * An exchange campaign end to end (docs/device-lifetime.md, "Exchange campaigns"): due devices
 * picked from the due list, visit days planned, the occupants told (e-mails in a real SMTP server,
 * the print list through pdftotext), progress from a replacement, a re-verification and a visit
 * without access, group 2's scope and the audit log.
 */

const smtp = await startSmtp();
const t = useApp({ smtpUrl: smtp.url, mailFrom: 'rodmenys@example.lt', publicUrl: 'https://rodmenys.example.lt' });
const dir = mkdtempSync(path.join(tmpdir(), 'campaign-pdf-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await smtp.close();
});

/** The text of a PDF as poppler's pdftotext extracts it. */
function pdfText(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const DAY_A = '2030-03-05';
const DAY_A_AGAIN = '2030-03-12';
const DAY_B = '2030-03-06';

describe(`exchange campaigns (${dbKind()})`, { timeout: 120_000 }, () => {
  let operator: SignedIn;
  let adminA: SignedIn;
  let adminC: SignedIn;
  let user: SignedIn;
  let campaign: CampaignDetail;
  const id: Record<string, number> = {};
  const mails = () => smtp.delivered.map((d) => ({ to: d.to[0]!, text: decodeMail(d.raw) }));

  const detail = async (token: string) => {
    const res = await inject(t.app, contract.getCampaign, { params: { id: campaign.Id }, token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const send = async () => {
    const res = await inject(t.app, contract.sendCampaignNotices, {
      params: { id: campaign.Id },
      token: operator.token,
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const plan = async (buildingId: number, visit: contract.CampaignVisit | null) => {
    const res = await inject(t.app, contract.planCampaignVisit, {
      params: { id: campaign.Id, buildingId },
      body: { visit },
      token: operator.token,
    });
    expect(res.status, res.text).toBe(200);
  };
  const printList = async (lang: 'lt' | 'en') => {
    const res = await inject(t.app, contract.getCampaignPrintList, {
      params: { id: campaign.Id },
      query: { lang },
      token: operator.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return pdfText(res.raw, `print-${lang}-${smtp.delivered.length}.pdf`);
  };

  beforeAll(async () => {
    const a = await makeBuilding(t.db, { city: 'Kaunas', street: 'Ąžuolų g.', number: '1' });
    const b = await makeBuilding(t.db, { city: 'Kaunas', street: 'Ąžuolų g.', number: '2' });
    const c = await makeBuilding(t.db, { city: 'Kaunas', street: 'Beržų g.', number: '9' });
    id.a = a.id;
    id.b = b.id;
    // Cold water meters installed seven years ago: overdue (6 years).
    const installedAt = '2019-01-10T12:00:00+02:00';
    for (const [building, key, order] of [
      [a, 'A1', 1],
      [a, 'A2', 2],
      [a, 'A3', 3],
      [b, 'B1', 1],
      [c, 'C1', 1],
    ] as const) {
      const flat = await makeFlat(t.db, building, { name: key.slice(1), order });
      id[`flat${key}`] = flat.id;
      id[key] = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `CW-${key}`, installedAt });
    }
    const consent = { consentAt: '2025-01-01', consentChannel: 'email' } as const;
    await makeOccupancy(t.db, id.flatA1!, {
      name: 'Ona Ąžuolienė',
      email: 'ona@example.lt',
      language: 'lt',
      ...consent,
    });
    // Moved out before the visit: never told, though she consented.
    await makeOccupancy(t.db, id.flatA2!, {
      name: 'Buvusi Gyventoja',
      email: 'gone@example.lt',
      moveOut: '2029-01-01',
      ...consent,
    });
    await makeOccupancy(t.db, id.flatA2!, {
      name: 'John Smith',
      email: 'john@example.lt',
      language: 'en',
      moveIn: '2029-01-01',
      ...consent,
    });
    // An address but no consent: on paper.
    await makeOccupancy(t.db, id.flatA3!, { name: 'Petras Be Sutikimo', email: 'petras@example.lt' });
    await makeOccupancy(t.db, id.flatB1!, { name: 'Jonas Popierinis' });
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator, firstName: 'Operatorė', lastName: 'Kampanijų' });
    adminA = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [a], firstName: 'Adminas', lastName: 'Alfa' });
    adminC = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [c] });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [a] });
  }, 120_000);

  it('starts a campaign from devices picked on the due list (group 1 only)', async () => {
    const due = await inject(t.app, contract.getDueDevices, { query: { months: 0 }, token: operator.token });
    expect(due.status).toBe(200);
    const picked = due.body.Rows.filter((r) => r.BuildingId === id.a || r.BuildingId === id.b).map((r) => r.DeviceId);
    expect(picked.sort((x, y) => x - y)).toEqual([id.A1, id.A2, id.A3, id.B1]);
    const body = { name: 'Vandens skaitiklių keitimas 2030', deviceIds: picked };
    const refused = await inject(t.app, contract.createCampaign, { body, token: adminA.token });
    expect(refused.status).toBe(403);
    const res = await inject(t.app, contract.createCampaign, { body, token: operator.token });
    expect(res.status, res.text).toBe(201);
    campaign = res.body;
    expect(campaign.Buildings.map((b) => [b.BuildingId, b.Devices.map((d) => d.DeviceCode)])).toEqual([
      [id.a, ['CW-A1', 'CW-A2', 'CW-A3']],
      [id.b, ['CW-B1']],
    ]);
    expect(campaign.Counts).toEqual({ Planned: 4, Done: 0, NoAccess: 0, Open: 4 });
  });

  it('refuses a device not in service, naming the field', async () => {
    await t.db.query(`UPDATE device SET removed_at = now() WHERE id = $1`, [id.C1]);
    const res = await inject(t.app, contract.createCampaign, {
      body: { name: 'x', deviceIds: [id.A1!, id.C1!] },
      token: operator.token,
    });
    expect(res.status).toBe(400);
    expect(res.error.code).toBe('campaignDeviceNotInService');
    expect(res.error.errors?.[0]?.field).toBe('deviceIds');
    await t.db.query(`UPDATE device SET removed_at = NULL WHERE id = $1`, [id.C1]);
  });

  it('plans visit days, refusing a window that ends before it starts', async () => {
    const bad = await inject(t.app, contract.planCampaignVisit, {
      params: { id: campaign.Id, buildingId: id.a! },
      body: { visit: { Day: DAY_A, From: '12:00', To: '09:00' } },
      token: operator.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.error.errors?.[0]?.field).toBe('visit');
    await plan(id.a!, { Day: DAY_A, From: '09:00', To: '12:00' });
    await plan(id.b!, { Day: DAY_B, From: null, To: null });
    const d = await detail(operator.token);
    expect(d.Buildings.map((b) => b.Visit)).toEqual([
      { Day: DAY_A, From: '09:00', To: '12:00' },
      { Day: DAY_B, From: null, To: null },
    ]);
  });

  it('mails consenting occupants the day in their language and puts the rest on the print list, once a day', async () => {
    expect(await send()).toEqual({ Mailed: 2, Failed: 0, Printed: 2, AlreadyTold: 0 });
    expect(
      mails()
        .map((m) => m.to)
        .sort(),
    ).toEqual(['john@example.lt', 'ona@example.lt']);
    const ona = mails().find((m) => m.to === 'ona@example.lt')!.text;
    expect(ona).toContain('2030 m. kovo 5 d.');
    expect(ona).toContain('09:00–12:00 val.');
    expect(ona).toContain('CW-A1');
    expect(ona).not.toContain('March');
    const john = mails().find((m) => m.to === 'john@example.lt')!.text;
    expect(john).toContain('5 March 2030');
    expect(john).toContain('Visit day');
    expect(john).not.toContain('kovo');
    // Sending again tells nobody twice of the same day.
    expect(await send()).toEqual({ Mailed: 0, Failed: 0, Printed: 0, AlreadyTold: 4 });
    expect(smtp.delivered).toHaveLength(2);
    // A new day for building A: its occupants are told again; B's are not.
    await plan(id.a!, { Day: DAY_A_AGAIN, From: null, To: null });
    expect(await send()).toEqual({ Mailed: 2, Failed: 0, Printed: 1, AlreadyTold: 1 });
    expect(
      mails()
        .filter((m) => m.text.includes('12 March 2030'))
        .map((m) => m.to),
    ).toEqual(['john@example.lt']);
    const d = await detail(operator.token);
    expect(d.Buildings.map((b) => [b.Mailed, b.Printed])).toEqual([
      [2, 1],
      [0, 1],
    ]);
  });

  it('prints the occupants without consent, by address, with the day in the list language', async () => {
    const en = await printList('en');
    expect(en).toContain('Visit notices');
    expect(en).not.toMatch(/Ona|John|Buvusi/);
    const petras = en.indexOf('Petras Be Sutikimo');
    const jonas = en.indexOf('Jonas Popierinis');
    expect(petras).toBeGreaterThan(0);
    expect(jonas).toBeGreaterThan(petras);
    expect(en).toContain('12 March 2030');
    expect(en).toContain('6 March 2030');
    const lt = await printList('lt');
    expect(lt).toContain('Pranešimai apie apsilankymą');
    expect(lt).toContain('kovo 12 d.');
  });

  it('counts a replacement through the replacement flow and a re-verification as done', async () => {
    const { rows } = await t.db.query<{ today: string }>(`SELECT to_char(current_date, 'YYYY-MM-DD') AS today`);
    const today = rows[0]!.today;
    const replaced = await inject(t.app, contract.replaceDevice, {
      params: { id: id.A1! },
      body: { replacedAt: `${today}T00:00:00`, finalReading: 10, newDeviceCode: 'CW-A1-NEW', initialReading: 0 },
      token: operator.token,
    });
    expect(replaced.status, replaced.text).toBe(201);
    // The same verification day again is no re-verification; a later one is.
    const same = await inject(t.app, contract.updateDevice, {
      params: { id: id.A2! },
      body: { verifiedOn: '2019-01-10' },
      token: operator.token,
    });
    expect(same.status, same.text).toBe(200);
    let a = (await detail(operator.token)).Buildings[0]!;
    expect(a.Devices.map((d) => d.State)).toEqual(['done', 'open', 'open']);
    const verified = await inject(t.app, contract.updateDevice, {
      params: { id: id.A2! },
      body: { verifiedOn: today },
      token: operator.token,
    });
    expect(verified.status, verified.text).toBe(200);
    a = (await detail(operator.token)).Buildings[0]!;
    expect(a.Devices.map((d) => [d.DeviceCode, d.State, d.DoneHow, d.DoneOn, d.NewDeviceCode])).toEqual([
      ['CW-A1', 'done', 'replaced', today, 'CW-A1-NEW'],
      ['CW-A2', 'done', 'reverified', today, null],
      ['CW-A3', 'open', null, null, null],
    ]);
  });

  it('lets group 2 read its scope and record a visit without access; 404 outside it, 403 to group 3', async () => {
    const res = await inject(t.app, contract.recordNoAccess, {
      params: { id: campaign.Id, deviceId: id.A3! },
      body: { day: DAY_A_AGAIN, reason: 'Nobody home' },
      token: adminA.token,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ Day: DAY_A_AGAIN, Reason: 'Nobody home' });
    const mine = await detail(adminA.token);
    expect(mine.Buildings.map((b) => b.BuildingId)).toEqual([id.a]);
    expect(mine.Counts).toEqual({ Planned: 3, Done: 2, NoAccess: 1, Open: 0 });
    expect(mine.Buildings[0]!.Devices[2]!.NoAccess.map((v) => v.Reason)).toEqual(['Nobody home']);
    // Who created it (an operator) only to group 1 (docs/security.md, "Names of accounts"); who recorded
    // the visit to group 1 and to that account itself.
    expect(mine.CreatedBy).toBeNull();
    expect((await inject(t.app, contract.listCampaigns, { token: adminA.token })).body[0]!.CreatedBy).toBeNull();
    expect(mine.Buildings[0]!.Devices[2]!.NoAccess[0]!.RecordedBy).toBe('Adminas Alfa');
    const operators = await detail(operator.token);
    expect(operators.CreatedBy).toBe('Operatorė Kampanijų');
    expect((await inject(t.app, contract.listCampaigns, { token: operator.token })).body[0]!.CreatedBy).toBe(
      'Operatorė Kampanijų',
    );
    expect(operators.Buildings[0]!.Devices[2]!.NoAccess[0]!.RecordedBy).toBe('Adminas Alfa');
    // Another building of the campaign, and a group 2 account with no building of it.
    const elsewhere = await inject(t.app, contract.recordNoAccess, {
      params: { id: campaign.Id, deviceId: id.B1! },
      body: { day: DAY_B, reason: 'Nobody home' },
      token: adminA.token,
    });
    expect(elsewhere.status).toBe(404);
    expect(
      (await inject(t.app, contract.getCampaign, { params: { id: campaign.Id }, token: adminC.token })).status,
    ).toBe(404);
    const other = await inject(t.app, contract.recordNoAccess, {
      params: { id: campaign.Id, deviceId: id.A3! },
      body: { day: DAY_A, reason: 'x' },
      token: adminC.token,
    });
    expect(other.status).toBe(404);
    expect((await inject(t.app, contract.listCampaigns, { token: adminC.token })).body).toEqual([]);
    expect((await inject(t.app, contract.listCampaigns, { token: user.token })).status).toBe(403);
    expect(
      (await inject(t.app, contract.sendCampaignNotices, { params: { id: campaign.Id }, token: adminA.token })).status,
    ).toBe(403);
  });

  it('counts progress per building and overall, exactly', async () => {
    const d = await detail(operator.token);
    expect(d.Buildings.map((b) => b.Counts)).toEqual([
      { Planned: 3, Done: 2, NoAccess: 1, Open: 0 },
      { Planned: 1, Done: 0, NoAccess: 0, Open: 1 },
    ]);
    expect(d.Counts).toEqual({ Planned: 4, Done: 2, NoAccess: 1, Open: 1 });
    const list = await inject(t.app, contract.listCampaigns, { token: operator.token });
    expect(list.body).toEqual([expect.objectContaining({ Id: campaign.Id, BuildingCount: 2, Counts: d.Counts })]);
  });

  it('writes every change to the audit log, and deletes', async () => {
    const del = await inject(t.app, contract.deleteCampaign, { params: { id: campaign.Id }, token: operator.token });
    expect(del.status).toBe(200);
    expect(
      (await inject(t.app, contract.getCampaign, { params: { id: campaign.Id }, token: operator.token })).status,
    ).toBe(404);
    const { rows } = await t.db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM audit_log WHERE entity = 'campaign' AND entity_id = $1
        GROUP BY kind ORDER BY kind`,
      [String(campaign.Id)],
    );
    expect(rows).toEqual([
      { kind: 'campaign.create', n: 1 },
      { kind: 'campaign.delete', n: 1 },
      { kind: 'campaign.noAccess', n: 1 },
      { kind: 'campaign.notify', n: 3 },
      { kind: 'campaign.plan', n: 3 },
    ]);
  });
});
