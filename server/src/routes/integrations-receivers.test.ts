import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import * as contract from '@rodmenys/contract';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outgoingNetworks } from '../env.js';
import { deliverBillingNotices } from '../services/billing/deliver.js';
import { queueBillingNotices } from '../services/billing/receivers.js';
import { checkOutgoingUrl, type Lookup, type OutgoingPolicy } from '../services/outgoing.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn, type SignedIn } from '../test/factories.js';

const { GROUP } = contract;
const MONTH = '2026-10';
/** The test's receivers listen on 127.0.0.1: this app allows that network, as an operator would. */
const LOCAL: OutgoingPolicy = { allowedNetworks: ['127.0.0.0/8'] };
const t = useApp();

/** A lookup that answers `names` (any other name: not found), as a resolver under an attacker's control would. */
const lookupOf =
  (names: Record<string, string>): Lookup =>
  (host, _options, callback) => {
    const address = names[host];
    if (!address) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    else callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  };

/** A real HTTP receiver on 127.0.0.1 whose requests are kept with the moment each arrived. */
async function receiver(handle: (req: IncomingMessage, res: ServerResponse, n: number) => unknown) {
  const got: { at: number; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer(async (req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    got.push({ at, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    await handle(req, res, got.length);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never answers: a receiver that is down without refusing. */
async function deadReceiver() {
  const sockets: Socket[] = [];
  const server: Server = createTcpServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe(`webhook receivers: where they may be, how they are told (${dbKind()})`, () => {
  let operator: SignedIn;
  beforeAll(async () => {
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
  });
  // Each test tells only its own receivers.
  beforeEach(async () => {
    await t.db.query('UPDATE billing_receiver SET active = false');
  });

  const create = (url: string, name = `hook ${url}`) =>
    inject(t.app, contract.createBillingReceiver, {
      token: operator.token,
      body: { name: name.slice(0, 100), kind: 'webhook', url },
    });

  /** A receiver row as it would be left by an earlier check (an address that resolved elsewhere then). */
  const storeReceiver = async (url: string) => {
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO billing_receiver (name, kind, url, secret) VALUES ($1, 'webhook', $2, 'whsec_test') RETURNING id`,
      [`stored ${url}`, url],
    );
    return rows[0]!.id;
  };
  const queue = async (version: number) => {
    await queueBillingNotices(t.db, MONTH, [{ buildingId: 1, version, publishedAt: '2026-11-20T12:00:00+02:00' }]);
    // Due from the database's now() (microseconds): a run started in the same millisecond would not see it.
    await new Promise((r) => setTimeout(r, 5));
  };
  const deliveries = async () =>
    (await inject(t.app, contract.listBillingDeliveries, { token: operator.token })).body.Deliveries;

  describe('POST /integrations/receivers', () => {
    it('refuses internal targets by address and by name (400 naming url), plain http to the outside, credentials', async () => {
      const internal = [
        'http://169.254.169.254/latest/meta-data/',
        'http://127.0.0.1:22/',
        'http://10.0.0.1/',
        'https://10.0.0.1/',
        'https://172.16.5.4/hook',
        'https://192.168.1.1/',
        'https://100.64.0.1/',
        'https://[::1]/',
        'https://[fd00::1]/',
        'https://[fe80::1]/',
        'https://224.0.0.1/',
        'https://[ff02::1]/',
        'https://0.0.0.0/',
        'https://[::]/',
        'https://[::ffff:127.0.0.1]/',
        'https://2130706433/',
        'https://0x7f.1/',
        'https://localhost/hook',
        'https://hooks.localhost:8443/',
      ];
      for (const url of internal) {
        const res = await create(url);
        expect(res.status, url).toBe(400);
        expect(res.error.code, url).toBe('receiverUrlInternal');
        expect(res.error.errors?.[0]?.field, url).toBe('url');
      }
      for (const url of ['http://billing.example/hook', 'http://93.184.216.34/hook']) {
        const res = await create(url);
        expect(res.status, url).toBe(400);
        expect(res.error.code, url).toBe('receiverUrlHttps');
      }
      const withSecret = await create('https://erp:Pa55-secret@billing.example/hook', 'with credentials');
      expect(withSecret.status).toBe(400);
      expect(withSecret.error.code).toBe('receiverUrlCredentials');
      expect(withSecret.text).not.toContain('Pa55-secret');
      const { rows } = await t.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM audit_log a WHERE strpos(a::text, 'Pa55-secret') > 0)
              + (SELECT count(*) FROM billing_receiver r WHERE strpos(r::text, 'Pa55-secret') > 0) AS n`,
      );
      expect(Number(rows[0]!.n)).toBe(0);
      expect((await create('ftp://billing.example/')).error.code).toBe('receiverUrl');
      // https to a public address or a name is accepted.
      for (const url of ['https://billing.example/hook', 'https://93.184.216.34/hook']) {
        const res = await create(url);
        expect(res.status, url).toBe(201);
      }
    });

    it('checks the addresses a name resolves to, and allows only the operator’s internal networks (http there only)', async () => {
      const lookup = lookupOf({
        'inside.example': '127.0.0.1',
        'metadata.example': '169.254.169.254',
        'erp.example': '10.20.3.4',
        'public.example': '93.184.216.34',
      });
      const strict: OutgoingPolicy = { allowedNetworks: [], lookup };
      expect(await checkOutgoingUrl('https://inside.example/hook', strict)).toEqual({ refused: 'receiverUrlInternal' });
      expect(await checkOutgoingUrl('https://metadata.example/', strict)).toEqual({ refused: 'receiverUrlInternal' });
      expect(await checkOutgoingUrl('https://erp.example/', strict)).toEqual({ refused: 'receiverUrlInternal' });
      expect(await checkOutgoingUrl('https://public.example/hook', strict)).toEqual({
        url: 'https://public.example/hook',
      });
      const erp: OutgoingPolicy = { allowedNetworks: outgoingNetworks(' 10.20.0.0/16 , fd00:20::/32'), lookup };
      expect(await checkOutgoingUrl('http://erp.example/hook', erp)).toEqual({ url: 'http://erp.example/hook' });
      expect(await checkOutgoingUrl('http://10.20.9.9/', erp)).toEqual({ url: 'http://10.20.9.9/' });
      expect(await checkOutgoingUrl('http://[fd00:20::5]/', erp)).toEqual({ url: 'http://[fd00:20::5]/' });
      expect(await checkOutgoingUrl('http://10.21.0.1/', erp)).toEqual({ refused: 'receiverUrlInternal' });
      expect(await checkOutgoingUrl('https://inside.example/', erp)).toEqual({ refused: 'receiverUrlInternal' });
      expect(await checkOutgoingUrl('http://public.example/', erp)).toEqual({ refused: 'receiverUrlHttps' });
      expect(() => outgoingNetworks('10.0.0.0/8,intranet')).toThrow(/OUTGOING_ALLOWED_NETWORKS/);
      expect(() => outgoingNetworks('10.0.0.0/33')).toThrow(/OUTGOING_ALLOWED_NETWORKS/);
    });
  });

  describe('sending', () => {
    it('refuses an internal address again when sending: a stored address, and a name that now resolves inside', async () => {
      const inside = await receiver((_req, res) => res.end('internal secrets'));
      try {
        await storeReceiver(inside.url);
        // Accepted when it resolved outside; resolves to the loopback address by the time of sending.
        await storeReceiver(`https://rebind.example:${inside.port}/hook`);
        await queue(1);
        const lookup = lookupOf({ 'rebind.example': '127.0.0.1' });
        const counts = await deliverBillingNotices(t.db, new Date(), { outgoing: { allowedNetworks: [], lookup } });
        expect(counts).toMatchObject({ delivered: 0, failed: 2 });
        expect(inside.got).toHaveLength(0);
        const log = (await deliveries()).filter((d) => d.Version === 1 && d.Attempts.length);
        expect(log).toHaveLength(2);
        for (const d of log)
          expect(d.Attempts[0]).toMatchObject({ Status: null, Reason: 'refusedAddress', Response: null });
        expect(log[0]!.Attempts[0]!.Error).toBe(contract.DELIVERY_REASON_TEXT.refusedAddress);
      } finally {
        await inside.close();
      }
    });

    it('logs why an attempt failed as a reason, never the answer’s body', async () => {
      const busy = await receiver((_req, res) => {
        res.statusCode = 500;
        res.end('db password is hunter2');
      });
      const tlsOnPlain = await receiver((_req, res) => res.end('ok'));
      const closed = await receiver((_req, res) => res.end('ok'));
      await closed.close();
      const dead = await deadReceiver();
      try {
        const ids = {
          busy: await storeReceiver(busy.url),
          tls: await storeReceiver(tlsOnPlain.url.replace('http:', 'https:')),
          refused: await storeReceiver(closed.url),
          dead: await storeReceiver(dead.url),
        };
        await queue(2);
        await deliverBillingNotices(t.db, new Date(), { outgoing: LOCAL, timeoutMs: 500 });
        const log = await deliveries();
        const reasonOf = (id: number) => log.find((d) => d.ReceiverId === id && d.Version === 2)!.Attempts[0]!;
        expect(reasonOf(ids.busy)).toMatchObject({
          Status: 500,
          Reason: 'httpStatus',
          Response: 'Internal Server Error',
        });
        expect(reasonOf(ids.busy).Error).toBe('HTTP 500');
        expect(reasonOf(ids.tls)).toMatchObject({ Status: null, Reason: 'tlsError' });
        expect(reasonOf(ids.refused)).toMatchObject({ Status: null, Reason: 'connectionRefused' });
        expect(reasonOf(ids.dead)).toMatchObject({ Status: null, Reason: 'timedOut' });
        const { rows } = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM billing_delivery_attempt a WHERE strpos(a::text, 'hunter2') > 0`,
        );
        expect(rows[0]!.n).toBe(0);
        expect(busy.got).toHaveLength(1);
      } finally {
        await Promise.all([busy.close(), tlsOnPlain.close(), dead.close()]);
      }
    });

    it('stamps and signs each attempt when it is sent: a dead receiver ahead delays no other', async () => {
      const dead = await deadReceiver();
      // The live receiver answers its first notice after 1.5 s: its second is sent (and stamped) after that.
      const live = await receiver(async (_req, res, n) => {
        if (n === 1) await new Promise((r) => setTimeout(r, 1500));
        res.end('ok');
      });
      try {
        const deadId = await storeReceiver(dead.url);
        const liveId = await storeReceiver(live.url);
        expect(deadId).toBeLessThan(liveId);
        await queue(3);
        await queue(4);
        const started = Date.now();
        const counts = await deliverBillingNotices(t.db, new Date(started), { outgoing: LOCAL, timeoutMs: 6000 });
        expect(counts).toMatchObject({ delivered: 2, failed: 1 });
        expect(live.got).toHaveLength(2);
        // Sent at once, not after the dead receiver's 6 s (a wide margin for a loaded machine).
        expect(live.got[0]!.at - started).toBeLessThan(4000);
        expect(live.got[1]!.at - started).toBeGreaterThanOrEqual(1500);
        const log = (await deliveries()).filter((d) => d.ReceiverId === liveId);
        for (const g of live.got) {
          const stamped = Number(g.headers['x-rodmenys-timestamp']) * 1000;
          // Both are whole seconds, cut: the second the send began, so at most a second (plus the
          // way to the receiver) before the arrival, never after it. A stamp of the run's start would
          // lie 1.5 s or more before the second notice's arrival.
          expect(g.at - stamped, 'signed timestamp').toBeGreaterThanOrEqual(0);
          expect(g.at - stamped, 'signed timestamp').toBeLessThan(1500);
          const attempt = log.find((d) => d.Id === Number(g.headers['x-rodmenys-delivery']))!.Attempts[0]!;
          expect(g.at - Date.parse(attempt.At), 'logged time').toBeGreaterThanOrEqual(0);
          expect(g.at - Date.parse(attempt.At), 'logged time').toBeLessThan(1500);
        }
        const deadLog = (await deliveries()).filter((d) => d.ReceiverId === deadId);
        // The dead receiver's first notice timed out; its second waits for the next run.
        expect(deadLog.map((d) => d.Attempts.map((a) => a.Reason))).toEqual([[], ['timedOut']]);
      } finally {
        await Promise.all([dead.close(), live.close()]);
      }
    });
  });

  describe('POST /integrations/receivers/:id/disable while the job sends', () => {
    for (const answer of [200, 500]) {
      it(`sends nothing after the switch-off, logs before it, and gives up consistently (answer ${answer})`, async () => {
        let receiverId = 0;
        let switchedOffAt = 0;
        const hook = await receiver(async (_req, res, n) => {
          if (n === 1) {
            const off = await inject(t.app, contract.disableBillingReceiver, {
              token: operator.token,
              params: { id: receiverId },
            });
            expect(off.status).toBe(200);
            switchedOffAt = Date.now();
          }
          res.statusCode = answer;
          res.end();
        });
        try {
          receiverId = await storeReceiver(hook.url);
          await queue(5);
          await queue(6);
          await deliverBillingNotices(t.db, new Date(), { outgoing: LOCAL });
          expect(hook.got).toHaveLength(1);
          const log = (await deliveries()).filter((d) => d.ReceiverId === receiverId).sort((x, y) => x.Id - y.Id);
          expect(log.map((d) => d.State)).toEqual([answer === 200 ? 'delivered' : 'failed', 'failed']);
          expect(log.map((d) => d.Attempts.length)).toEqual([1, 0]);
          expect(Date.parse(log[0]!.Attempts[0]!.At)).toBeLessThanOrEqual(switchedOffAt);
          const { rows } = await t.db.query<{ delivered: boolean; given_up: boolean }>(
            `SELECT delivered_at IS NOT NULL AS delivered, given_up_at IS NOT NULL AS given_up
               FROM billing_delivery WHERE receiver_id = $1 ORDER BY id`,
            [receiverId],
          );
          expect(rows).toEqual([
            { delivered: answer === 200, given_up: answer !== 200 },
            { delivered: false, given_up: true },
          ]);
          // A later run sends nothing more.
          await deliverBillingNotices(t.db, new Date(Date.now() + 3600_000), { outgoing: LOCAL });
          expect(hook.got).toHaveLength(1);
        } finally {
          await hook.close();
        }
      });
    }
  });
});
