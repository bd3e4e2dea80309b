import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import {
  DEVICE_TYPE,
  type Endpoint,
  GROUP,
  LETTER_CODE_ALPHABET,
  LETTER_CODE_LENGTH,
  OCCUPANT_SESSION_PREFIX,
} from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throttleSettings } from '../env.js';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { issueLetterCode, issueLink } from '../services/occupant-access/secrets.js';
import { inject, injectUrl, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import {
  makeBuilding,
  makeDevice,
  makeFlat,
  makeOccupancy,
  makeReadings,
  makeSignedIn,
  type SignedIn,
} from '../test/factories.js';
import { dayFromToday } from '../test/months.js';

/*
 * The occupant's access (docs/occupant-access.md, docs/security.md "The occupant's code page"):
 * a secret opens exactly its occupancy's published months and nothing of the back office;
 * revoked and expired secrets are refused at once; the code page is throttled.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'occupant-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdfText(bytes: Uint8Array): string {
  const file = path.join(dir, 'statement.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** Every endpoint the contract exports (the grouped type-ahead ones too). */
function contractEndpoints(): Endpoint[] {
  const isEndpoint = (v: unknown): v is Endpoint =>
    typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'auth' in v && 'response' in v;
  const found = new Map<string, Endpoint>();
  for (const value of Object.values(contract)) {
    if (isEndpoint(value)) found.set(`${value.method} ${value.path}`, value);
    else if (typeof value === 'object' && value !== null)
      for (const inner of Object.values(value))
        if (isEndpoint(inner)) found.set(`${inner.method} ${inner.path}`, inner);
  }
  return [...found.values()];
}

/** A path with plausible values in its parameters (a month, a day, an id). */
const samplePath = (p: string) =>
  p.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    name === 'month' ? '2026-03' : name === 'day' ? '2026-03-15' : name === 'key' ? 'window.days' : '1',
  );

/** A random code of the right shape, never the given one. */
const wrongCode = (not: string) => {
  for (;;) {
    let c = '';
    for (let i = 0; i < LETTER_CODE_LENGTH; i++) c += LETTER_CODE_ALPHABET[Math.floor(Math.random() * 32)];
    if (c !== not) return c;
  }
};

const signInLink = (app: ReturnType<typeof useApp>['app'], token: string) =>
  inject(app, contract.signInOccupantByLink, { body: { token } });

describe(`the occupant's access (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let flat: number;
  let neighbourFlat: number;
  let otherFlat: number;
  let oldOcc: number;
  let newOcc: number;
  let neighbourOcc: number;
  const links: Record<string, string> = {};
  const codes: Record<string, string> = {};

  const session = async (who: 'old' | 'new' | 'neighbour') => {
    const res = await signInLink(t.app, links[who]!);
    expect(res.status, res.text).toBe(201);
    return res.body.Token;
  };
  const months = async (token: string) => inject(t.app, contract.listOccupantMonths, { token });
  const setGrace = (days: number) =>
    t.db.query(`UPDATE dq_setting SET value = $1::jsonb WHERE key = 'occupantAccess.graceDays'`, [String(days)]);

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '9' });
    const other = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '11' });
    flat = (await makeFlat(t.db, building, { name: '1', order: 1 })).id;
    neighbourFlat = (await makeFlat(t.db, building, { name: '2', order: 2 })).id;
    otherFlat = (await makeFlat(t.db, other, { name: '3', order: 1 })).id;
    for (const [f, code] of [
      [flat, 'OA-1'],
      [neighbourFlat, 'OA-2'],
      [otherFlat, 'OA-3'],
    ] as const) {
      const device = await makeDevice(t.db, f, { typeId: DEVICE_TYPE.coldWaterMeter, code });
      await makeReadings(t.db, device, [
        ['2025-12-31T23:00:00+02:00', 100],
        ['2026-01-31T23:00:00+02:00', 110],
        ['2026-02-28T23:00:00+02:00', 120],
        ['2026-03-15T00:00:00+02:00', 125],
        ['2026-03-31T23:00:00+03:00', 131],
        ['2026-04-30T23:00:00+03:00', 140],
        ['2026-05-31T23:00:00+03:00', 150],
      ]);
    }
    await refreshMonthEnds(t.db, new Date('2026-11-26T12:00:00Z'));
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    oldOcc = await makeOccupancy(t.db, flat, { clientCode: 'OLD-1', name: 'Petras Senasis', language: 'lt' });
    neighbourOcc = await makeOccupancy(t.db, neighbourFlat, { clientCode: 'NB-2', name: 'Kaimynas Jonaitis' });
    await makeOccupancy(t.db, otherFlat, { clientCode: 'OT-3', name: 'Kitas Namas' });
    const moved = await inject(t.app, contract.recordMove, {
      params: { id: flat },
      body: { day: '2026-03-15', clientCode: 'NEW-1', name: 'Aistė Naujoji', language: 'en' },
      token: operator.token,
    });
    expect(moved.status, moved.text).toBe(201);
    newOcc = moved.body.Occupancies.find((o) => o.ClientCode === 'NEW-1')!.Id;
    // January to April published; May computed but not published.
    for (const month of ['2026-01', '2026-02', '2026-03', '2026-04']) {
      const pub = await inject(t.app, contract.publishStatements, { body: { month }, token: operator.token });
      expect(pub.status, pub.text).toBe(200);
    }
    // The old occupant moved out in March: their access lasts while the grace period does.
    await setGrace(3650);
    for (const [who, id] of [
      ['old', oldOcc],
      ['new', newOcc],
      ['neighbour', neighbourOcc],
    ] as const) {
      links[who] = await issueLink(t.db, id);
      codes[who] = await issueLetterCode(t.db, id);
    }
  }, 180_000);

  describe('POST /api/occupant/sessions/link', () => {
    it('gives an occupant session, a kind of its own', async () => {
      const res = await signInLink(t.app, links.new!);
      expect(res.status, res.text).toBe(201);
      expect(res.body.Token.startsWith(OCCUPANT_SESSION_PREFIX)).toBe(true);
      expect(res.body.Language).toBe('en');
      // Neither the link's token is a session, nor a session a link.
      expect((await inject(t.app, contract.getOccupantProfile, { token: links.new! })).status).toBe(401);
      expect((await signInLink(t.app, res.body.Token)).status).toBe(401);
    });

    it('answers the same 401 for an unknown token, whatever it looks like', async () => {
      const a = await signInLink(t.app, 'x'.repeat(43));
      // One character off the real token (never the same one: a token may end in either letter).
      const real = links.new!;
      const b = await signInLink(t.app, `${real.slice(0, -1)}${real.endsWith('A') ? 'E' : 'A'}`);
      expect([a.status, b.status]).toEqual([401, 401]);
      expect(a.text).toBe(b.text);
      expect(a.error.code).toBe('occupantSignInFailed');
    });
  });

  describe('GET /api/occupant/months', () => {
    it("lists exactly the occupancy's published months", async () => {
      expect((await months(await session('new'))).body.map((m) => m.Month)).toEqual(['2026-04', '2026-03']);
      // Not April: the old occupant had moved out.
      expect((await months(await session('old'))).body.map((m) => m.Month)).toEqual(['2026-03', '2026-02', '2026-01']);
      expect((await months(await session('neighbour'))).body.map((m) => m.Month)).toEqual([
        '2026-04',
        '2026-03',
        '2026-02',
        '2026-01',
      ]);
    });
  });

  describe('GET /api/occupant/months/:month', () => {
    it("shows the occupant's own days and figures, never the other occupant's", async () => {
      const res = await inject(t.app, contract.getOccupantStatement, {
        params: { month: '2026-03' },
        token: await session('new'),
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.Statement).toMatchObject({ Name: 'Aistė Naujoji', From: '2026-03-15', Till: '2026-03-31' });
      expect(res.body.Statement.Kinds[0]?.Current.Value).toBe(6);
      expect(res.body.History.map((h) => h.Month)).toEqual(['2026-03']);
      expect(res.text).not.toContain('Petras');
      expect(res.text).not.toContain('OLD-1');
      expect(res.text).not.toContain('OA-1');
      const old = await inject(t.app, contract.getOccupantStatement, {
        params: { month: '2026-03' },
        token: await session('old'),
      });
      expect(old.body.Statement).toMatchObject({ Name: 'Petras Senasis', From: '2026-03-01', Till: '2026-03-14' });
      expect(old.body.Statement.Kinds[0]?.Current.Value).toBe(5);
      expect(old.body.History.map((h) => [h.Month, h.Kinds[0]?.Value])).toEqual([
        ['2026-01', 10],
        ['2026-02', 10],
        ['2026-03', 5],
      ]);
      expect(old.text).not.toContain('Aistė');
    });

    it('answers 404 for another month: before the occupancy, after the move-out, unpublished, long ago', async () => {
      const token = await session('new');
      for (const month of ['2026-02', '2026-01', '2026-05', '2025-12']) {
        const res = await inject(t.app, contract.getOccupantStatement, { params: { month }, token });
        expect(res.status, month).toBe(404);
        expect(res.error.code).toBe('occupantMonthNotFound');
      }
      const oldToken = await session('old');
      for (const month of ['2026-04', '2026-05']) {
        const old = await inject(t.app, contract.getOccupantStatement, { params: { month }, token: oldToken });
        expect(old.status, month).toBe(404);
      }
    });

    it("reaches no other flat: the back office's statement endpoints refuse the session", async () => {
      const token = await session('new');
      for (const flatId of [flat, neighbourFlat, otherFlat]) {
        const res = await inject(t.app, contract.getFlatStatement, {
          params: { flatId },
          query: { month: '2026-03' },
          token,
        });
        expect(res.status).toBe(403);
        const split = await inject(t.app, contract.getOccupancyStatements, {
          params: { flatId },
          query: { month: '2026-03' },
          token,
        });
        expect(split.status).toBe(403);
        expect(split.text).not.toContain('Petras');
      }
    });
  });

  describe('GET /api/occupant/months/:month/pdf', () => {
    it("is the occupant's own page, in their language or the one asked for", async () => {
      const token = await session('new');
      const res = await inject(t.app, contract.getOccupantStatementPdf, { params: { month: '2026-03' }, token });
      expect(res.status, res.text.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = pdfText(res.raw);
      expect(text).toContain('Aistė Naujoji');
      expect(text).toContain('2026-03-15');
      expect(text).not.toContain('Petras');
      expect(text).not.toContain('OA-1');
      const lt = await inject(t.app, contract.getOccupantStatementPdf, {
        params: { month: '2026-03' },
        query: { lang: 'lt' },
        token,
      });
      expect(pdfText(lt.raw)).toContain('Gyventojas: Aistė Naujoji');
      const other = await inject(t.app, contract.getOccupantStatementPdf, { params: { month: '2026-02' }, token });
      expect(other.status).toBe(404);
    });

    it('of a published month says published, with its version, as the back office does (both languages)', async () => {
      const { rows } = await t.db.query<{ version: number; at: string }>(
        `SELECT p.version, iso(p.published_at) AS at FROM statement_publication p
          WHERE p.month = '2026-03-01' AND p.building_id = (SELECT parent_id FROM location WHERE id = $1)
          ORDER BY p.version DESC LIMIT 1`,
        [flat],
      );
      const version = rows[0]!.version;
      const at = rows[0]!.at.slice(0, 10);
      // The new occupant's part of a flat with a move, and the neighbour's whole month.
      for (const who of ['new', 'neighbour'] as const) {
        const token = await session(who);
        const text = async (lang: 'lt' | 'en') =>
          pdfText(
            (
              await inject(t.app, contract.getOccupantStatementPdf, {
                params: { month: '2026-03' },
                query: { lang },
                token,
              })
            ).raw,
          ).replace(/\s+/g, ' ');
        const en = await text('en');
        expect(en, who).toContain(`Published (version ${version}) ${at}`);
        expect(en, who).not.toContain('Preliminary');
        const lt = await text('lt');
        expect(lt, who).toContain(`Paskelbta (versija ${version}) ${at}`);
        expect(lt, who).not.toContain('Preliminari');
      }
    });
  });

  describe('GET /api/occupant/profile, PUT /api/occupant/consent', () => {
    it('shows the occupancy and switches electronic delivery, audited', async () => {
      const token = await session('neighbour');
      const before = await inject(t.app, contract.getOccupantProfile, { token });
      expect(before.body).toMatchObject({
        OccupancyId: neighbourOcc,
        Name: 'Kaimynas Jonaitis',
        City: 'Vilnius',
        Flat: '2',
        Electronic: false,
      });
      const on = await inject(t.app, contract.updateOccupantConsent, { body: { electronic: true }, token });
      expect(on.body).toMatchObject({ Electronic: true, ConsentChannel: 'portal' });
      expect(on.body.ConsentAt).toMatch(/^\d{4}-\d\d-\d\d$/);
      const off = await inject(t.app, contract.updateOccupantConsent, { body: { electronic: false }, token });
      expect(off.body).toMatchObject({ Electronic: false, ConsentAt: null, ConsentChannel: null });
      const audit = await inject(t.app, contract.getAuditLog, {
        query: { kind: 'occupantAccess.consent' },
        token: operator.token,
      });
      expect(audit.body.Data.map((e) => [e.EntityId, e.After])).toEqual([
        [String(neighbourOcc), { ConsentAt: null, ConsentChannel: null }],
        [String(neighbourOcc), { ConsentAt: on.body.ConsentAt, ConsentChannel: 'portal' }],
      ]);
    });
  });

  // Every attempt that passes the throttle costs two scrypt checks: slow on a loaded machine, hence the timeouts.
  describe('POST /api/occupant/sessions/code', () => {
    const byCode = (flatId: number, code: string, remoteAddress = '10.9.0.1') =>
      inject(t.app, contract.signInOccupantByCode, { body: { flat: flatId, code }, remoteAddress });

    it('opens the occupancy with the flat and its code, typed loosely', async () => {
      const code = codes.new!;
      const typed = `${code.slice(0, 5).toLowerCase()} - ${code.slice(5)}`.replace(/0/g, 'o').replace(/1/g, 'l');
      const res = await byCode(flat, typed);
      expect(res.status, res.text).toBe(201);
      const profile = await inject(t.app, contract.getOccupantProfile, { token: res.body.Token });
      expect(profile.body.OccupancyId).toBe(newOcc);
      // The previous occupant's code opens the previous occupancy, on the same flat.
      const old = await byCode(flat, codes.old!);
      expect((await inject(t.app, contract.getOccupantProfile, { token: old.body.Token })).body.OccupancyId).toBe(
        oldOcc,
      );
    });

    it('answers a wrong code, another flat and a flat that does not exist alike', { timeout: 180_000 }, async () => {
      const answers = [
        await byCode(flat, wrongCode(codes.new!), '10.9.1.1'),
        await byCode(otherFlat, codes.new!, '10.9.1.2'),
        await byCode(2_000_000_000, codes.new!, '10.9.1.3'),
        await byCode(2_000_000_001, 'not a code', '10.9.1.4'),
      ];
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    });

    it('answers 429 with Retry-After after 5 attempts on one flat, whatever the address, even to the right code', {
      timeout: 180_000,
    }, async () => {
      const limits = throttleSettings({});
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push((await byCode(neighbourFlat, wrongCode(codes.neighbour!), `10.8.0.${i}`)).status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(limits.occupantCodeFlatAttempts);
      expect(statuses.slice(limits.occupantCodeFlatAttempts).every((s) => s === 429)).toBe(true);
      const right = await byCode(neighbourFlat, codes.neighbour!, '10.8.1.1');
      expect(right.status).toBe(429);
      expect(right.error.code).toBe('occupantTooManyAttempts');
      const retry = Number(right.headers['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(limits.occupantCodeWindowSeconds);
      // Tried: 5 of 32^10 codes in an hour.
      expect(limits.occupantCodeFlatAttempts / 32 ** LETTER_CODE_LENGTH).toBeLessThan(1e-14);
    });

    it('answers 429 after 20 attempts from one address, across flats', { timeout: 180_000 }, async () => {
      const limits = throttleSettings({});
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await byCode(1_000_000 + i, wrongCode(''), '10.7.0.1')).status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(limits.occupantCodeAddressAttempts);
      expect(statuses.slice(limits.occupantCodeAddressAttempts).every((s) => s === 429)).toBe(true);
      // Another address is not held back by it.
      expect((await byCode(flat, codes.new!, '10.7.0.2')).status).toBe(201);
    });
  });

  describe('every contract endpoint with an occupant session', () => {
    it('reaches only the occupant endpoints: the others answer 401 or 403', async () => {
      const token = await session('new');
      const reached: string[] = [];
      for (const e of contractEndpoints()) {
        if (e.auth === 'none' || e === contract.signOutOccupant) continue;
        const res = await injectUrl(t.app, e.method, `/api${samplePath(e.path)}`, {
          token,
          ...(['POST', 'PUT', 'PATCH'].includes(e.method) ? { payload: {} } : {}),
        });
        if (e.auth === 'occupant') {
          expect([200, 400, 404], `${e.method} ${e.path}: ${res.text.slice(0, 200)}`).toContain(res.status);
          reached.push(`${e.method} ${e.path}`);
        } else {
          expect([401, 403], `${e.method} ${e.path}`).toContain(res.status);
          expect(res.text).not.toContain('Aistė');
          if (e.auth !== 'collector' && e.auth !== 'lns')
            expect(res.error.code, `${e.method} ${e.path}`).toBe('occupantNotAllowed');
        }
      }
      expect(reached.sort()).toEqual([
        'GET /occupant/declarations',
        'GET /occupant/months',
        'GET /occupant/months/:month',
        'GET /occupant/months/:month/pdf',
        'GET /occupant/profile',
        'POST /occupant/declarations',
        'POST /occupant/declarations/photos',
        'PUT /occupant/consent',
      ]);
    });

    it('back-office tokens and integration keys open no occupant endpoint', async () => {
      const key = await inject(t.app, contract.createIntegrationKey, {
        body: { name: 'occupant test', locationIds: [flat], expiresOn: dayFromToday(30) },
        token: operator.token,
      });
      expect(key.status, key.text).toBe(201);
      for (const token of [operator.token, key.body.Key]) {
        for (const e of contractEndpoints().filter((x) => x.auth === 'occupant')) {
          const res = await injectUrl(t.app, e.method, `/api${samplePath(e.path)}`, { token });
          expect(res.status, `${e.method} ${e.path}`).toBe(401);
          expect(res.text).not.toContain('Aistė');
        }
      }
    });
  });

  describe('POST /api/occupancies/:id/access/revoke and reissue', () => {
    it('revoking ends every link, the code and the sessions at once; reissuing gives new ones; both audited', async () => {
      const token = await session('new');
      const firstLink = links.new!;
      const secondLink = await issueLink(t.db, newOcc);
      const state = await inject(t.app, contract.getOccupantAccess, { params: { id: newOcc }, token: operator.token });
      expect(state.body).toMatchObject({ OccupancyId: newOcc, ActiveLinks: 2, AccessUntil: null });
      expect(state.body.LetterCodeIssuedAt).not.toBeNull();

      const revoked = await inject(t.app, contract.revokeOccupantAccess, {
        params: { id: newOcc },
        token: operator.token,
      });
      expect(revoked.status, revoked.text).toBe(200);
      expect(revoked.body).toMatchObject({ ActiveLinks: 0, LetterCodeIssuedAt: null });
      const after = await inject(t.app, contract.getOccupantProfile, { token });
      expect(after.status).toBe(401);
      expect(after.error.code).toBe('occupantSessionEnded');
      expect((await signInLink(t.app, firstLink)).status).toBe(401);
      expect((await signInLink(t.app, secondLink)).status).toBe(401);
      const code = await inject(t.app, contract.signInOccupantByCode, {
        body: { flat, code: codes.new! },
        remoteAddress: '10.6.0.1',
      });
      expect(code.status).toBe(401);

      const reissued = await inject(t.app, contract.reissueOccupantAccess, {
        params: { id: newOcc },
        token: operator.token,
      });
      expect(reissued.status, reissued.text).toBe(201);
      expect(reissued.body.Link).toMatch(/\/occupant\/open#[A-Za-z0-9_-]{43}$/);
      expect(reissued.body.LetterCode).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
      expect(reissued.body.Access).toMatchObject({ ActiveLinks: 1 });
      expect((await signInLink(t.app, reissued.body.Token)).status).toBe(201);
      expect((await signInLink(t.app, firstLink)).status).toBe(401);
      const byNewCode = await inject(t.app, contract.signInOccupantByCode, {
        body: { flat, code: reissued.body.LetterCode },
        remoteAddress: '10.6.0.2',
      });
      expect(byNewCode.status, byNewCode.text).toBe(201);
      links.new = reissued.body.Token;

      const audit = await inject(t.app, contract.getAuditLog, {
        query: { kind: 'occupantAccess.revoke,occupantAccess.reissue' },
        token: operator.token,
      });
      expect(audit.body.Data.map((e) => [e.Kind, e.EntityId, e.ActorUsername])).toEqual([
        ['occupantAccess.reissue', String(newOcc), operator.username],
        ['occupantAccess.revoke', String(newOcc), operator.username],
      ]);
      expect(audit.body.Data[1]?.After).toEqual({ RevokedSecrets: 3 });
      // The audit never holds a secret.
      const raw = JSON.stringify(audit.body);
      expect(raw).not.toContain(reissued.body.Token);
      expect(raw).not.toContain(reissued.body.LetterCode.replace('-', ''));
    });
  });

  describe('expiry: move-out plus the grace period (occupantAccess.graceDays)', () => {
    it("refuses a moved-out occupant's session, link and code at once when the grace period is over", async () => {
      const token = await session('old');
      await setGrace(0);
      try {
        const res = await inject(t.app, contract.listOccupantMonths, { token });
        expect(res.status).toBe(401);
        expect((await signInLink(t.app, links.old!)).status).toBe(401);
        const code = await inject(t.app, contract.signInOccupantByCode, {
          body: { flat, code: codes.old! },
          remoteAddress: '10.5.0.1',
        });
        expect(code.status).toBe(401);
        // The occupant who still lives there is not affected.
        expect((await signInLink(t.app, links.new!)).status).toBe(201);
        const state = await inject(t.app, contract.getOccupantAccess, {
          params: { id: oldOcc },
          token: operator.token,
        });
        expect(state.body.AccessUntil).toBe('2026-03-14');
      } finally {
        await setGrace(3650);
      }
      // Ended is ended: raising the grace period again opens new sessions, not the one that ended.
      expect((await inject(t.app, contract.listOccupantMonths, { token })).status).toBe(401);
      expect((await inject(t.app, contract.listOccupantMonths, { token: await session('old') })).status).toBe(200);
    });

    it('raising it again on the settings page revives no session that lowering it ended, used meanwhile or not', async () => {
      const used = await session('old');
      const idle = await session('old');
      const stays = await session('new');
      const grace = (value: number) =>
        inject(t.app, contract.updateDqSetting, {
          params: { key: 'occupantAccess.graceDays' },
          body: { value },
          token: operator.token,
        });
      expect((await grace(0)).status).toBe(200);
      try {
        expect((await inject(t.app, contract.getOccupantProfile, { token: used })).status).toBe(401);
      } finally {
        expect((await grace(3650)).status).toBe(200);
      }
      expect((await inject(t.app, contract.getOccupantProfile, { token: used })).status).toBe(401);
      expect((await inject(t.app, contract.getOccupantProfile, { token: idle })).status).toBe(401);
      // The occupant still living there kept theirs; the moved-out one signs in again with their link.
      expect((await inject(t.app, contract.getOccupantProfile, { token: stays })).status).toBe(200);
      expect((await inject(t.app, contract.getOccupantProfile, { token: await session('old') })).status).toBe(200);
    });
  });

  describe('DELETE /api/occupant/session', () => {
    it('ends the session it is called with, and only that one', async () => {
      const a = await session('neighbour');
      const b = await session('neighbour');
      expect((await inject(t.app, contract.signOutOccupant, { token: a })).status).toBe(200);
      expect((await inject(t.app, contract.getOccupantProfile, { token: a })).status).toBe(401);
      expect((await inject(t.app, contract.getOccupantProfile, { token: b })).status).toBe(200);
    });
  });
});

describe(`the occupant's code page, overall limit (${dbKind()})`, () => {
  const OVERALL = 12;
  const t = useApp({ throttle: { ...throttleSettings({}), occupantCodeAllAttempts: OVERALL } });

  it('answers 429 to everyone after the overall limit, across flats and addresses', { timeout: 180_000 }, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < OVERALL + 8; i++) {
      const res = await inject(t.app, contract.signInOccupantByCode, {
        body: { flat: 5_000 + i, code: wrongCode('') },
        remoteAddress: `10.4.${i}.1`,
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(OVERALL);
    expect(statuses.slice(OVERALL).every((s) => s === 429)).toBe(true);
  });
});
