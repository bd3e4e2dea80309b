import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { DeliveryReason } from '@rodmenys/contract';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { parseNetwork } from '../env.js';

/*
 * Every outgoing HTTP call of the product (webhooks to billing receivers) goes through here
 * (docs/integration.md, "Where a receiver may be"): the address is checked where it enters, and again
 * at connection time by one agent (request-filtering-agent) that refuses loopback, private, link-local,
 * unique-local, multicast and other reserved addresses after resolution, so a name that resolves
 * inside, or re-resolves there later (DNS rebinding), is refused too. OUTGOING_ALLOWED_NETWORKS
 * (README) lists the internal networks an operator allows; plain http goes only there.
 */

/** A `dns.lookup` with `{ all: true }`, replaceable in tests (a name that resolves where a test wants). */
export type Lookup = (
  hostname: string,
  options: { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Where outgoing calls may go. */
export interface OutgoingPolicy {
  /** Internal networks (CIDRs or addresses) allowed as targets, http included; empty: none. */
  allowedNetworks: readonly string[];
  /** Name resolution; dns.lookup when absent. */
  lookup?: Lookup | undefined;
}

/** The strict policy: no internal network allowed. */
export const NO_INTERNAL_NETWORKS: OutgoingPolicy = { allowedNetworks: [] };

/** An address as ipaddr reads it, an IPv4-mapped IPv6 address as its IPv4 address. */
const parsed = (address: string) => ipaddr.process(address.replace(/^\[|\]$/g, ''));

/** Whether `address` lies in one of the allowed networks. */
function isAllowed(address: string, policy: OutgoingPolicy): boolean {
  const a = parsed(address);
  return policy.allowedNetworks.some((n) => {
    const net = parseNetwork(n);
    return net !== null && net[0].kind() === a.kind() && a.match(net);
  });
}

/** Whether `address` is anything but a public unicast address (loopback, private, link-local, multicast, …). */
export function isInternal(address: string): boolean {
  try {
    return parsed(address).range() !== 'unicast';
  } catch {
    return true;
  }
}

/** Why a URL is refused where it enters: the error code the 400 names `url` with. */
export type UrlRefusal = 'receiverUrl' | 'receiverUrlCredentials' | 'receiverUrlInternal' | 'receiverUrlHttps';

const LOOKUP_TIMEOUT_MS = 3000;

/** The name's addresses; none when it does not resolve now (it is checked again at every connection). */
function resolve(host: string, policy: OutgoingPolicy): Promise<string[]> {
  if (isIP(host)) return Promise.resolve([host]);
  // RFC 6761: `localhost` and its subdomains are loopback whatever a resolver says.
  if (host === 'localhost' || host.endsWith('.localhost')) return Promise.resolve(['127.0.0.1', '::1']);
  const lookup: Lookup = policy.lookup ?? (dns.lookup as unknown as Lookup);
  return new Promise((done) => {
    const timer = setTimeout(() => done([]), LOOKUP_TIMEOUT_MS);
    lookup(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      done(err ? [] : addresses.map((a) => a.address));
    });
  });
}

/**
 * Checks a webhook URL where it enters (docs/integration.md, "Where a receiver may be"): http(s) only, no
 * user name or password, no internal address (by the literal address or the name's addresses now) outside
 * the allowed networks, and https unless every address lies in an allowed network. Answers the URL as it
 * will be stored, or the refusal.
 */
export async function checkOutgoingUrl(
  text: string,
  policy: OutgoingPolicy,
): Promise<{ url: string } | { refused: UrlRefusal }> {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { refused: 'receiverUrl' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { refused: 'receiverUrl' };
  if (u.username || u.password) return { refused: 'receiverUrlCredentials' };
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const addresses = await resolve(host, policy);
  if (addresses.some((a) => isInternal(a) && !isAllowed(a, policy))) return { refused: 'receiverUrlInternal' };
  if (u.protocol === 'http:' && !(addresses.length && addresses.every((a) => isAllowed(a, policy))))
    return { refused: 'receiverUrlHttps' };
  return { url: u.toString() };
}

/** The agents of a policy, made once: https anywhere public (and the allowed networks), http only to the latter. */
const agents = new WeakMap<OutgoingPolicy, { http: http.Agent; https: https.Agent }>();
function agentsOf(policy: OutgoingPolicy) {
  let a = agents.get(policy);
  if (!a) {
    const allowIPAddressList = [...policy.allowedNetworks];
    a = {
      https: new RequestFilteringHttpsAgent({ allowIPAddressList }),
      // The allowed networks are matched first; every other address is refused over plain http.
      http: new RequestFilteringHttpAgent({ allowIPAddressList, denyIPAddressList: ['0.0.0.0/0', '::/0'] }),
    };
    agents.set(policy, a);
  }
  return a;
}

/** How an outgoing POST ended: the status when there was an answer, a reason, and a short sanitised detail. */
export interface PostOutcome {
  status: number | null;
  reason: DeliveryReason;
  /** The HTTP reason phrase, printable ASCII only, at most 100 characters; the body is never read. */
  detail: string | null;
}

/** Printable ASCII only, at most 100 characters: all an answer leaves in the delivery log. */
export const sanitised = (text: string | undefined | null) =>
  (text ?? '')
    .replace(/[^\x20-\x7E]+/g, ' ')
    .trim()
    .slice(0, 100) || null;

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|EPROTO|HOSTNAME_MISMATCH|ERR_OSSL)/;

/** A connection error as a reason code (never its message: it may name internal addresses). */
export function reasonOf(err: unknown): DeliveryReason {
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  const code = String(e?.code ?? '');
  const message = String(e?.message ?? '');
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError' || code === 'ETIMEDOUT') return 'timedOut';
  if (/^DNS lookup .* is not allowed/.test(message)) return 'refusedAddress';
  if (code === 'ECONNREFUSED') return 'connectionRefused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') return 'nameNotResolved';
  if (TLS_CODES.test(code)) return 'tlsError';
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/.test(message)) return 'connectionReset';
  if (e?.cause) return reasonOf(e.cause);
  return 'networkError';
}

/**
 * POSTs `body` to `url` through the filtering agent: no redirect followed, the answer's body never read,
 * no answer within `timeoutMs` is `timedOut`. A 2xx is `accepted`.
 */
export function postOutgoing(
  url: string,
  p: { headers: Record<string, string>; body: string; timeoutMs: number; policy: OutgoingPolicy },
): Promise<PostOutcome> {
  return new Promise((done) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      done({ status: null, reason: 'refusedAddress', detail: null });
      return;
    }
    // A URL stored before addresses were checked may hold credentials: it is not sent.
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) {
      done({ status: null, reason: 'refusedAddress', detail: null });
      return;
    }
    const a = agentsOf(p.policy);
    const isHttps = u.protocol === 'https:';
    const req = (isHttps ? https : http).request(u, {
      method: 'POST',
      agent: isHttps ? a.https : a.http,
      headers: { ...p.headers, 'content-length': String(Buffer.byteLength(p.body)) },
      signal: AbortSignal.timeout(p.timeoutMs),
      ...(p.policy.lookup ? { lookup: p.policy.lookup as unknown as typeof dns.lookup } : {}),
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? null;
      const ok = status !== null && status >= 200 && status < 300;
      done({ status, reason: ok ? 'accepted' : 'httpStatus', detail: sanitised(res.statusMessage) });
      res.destroy();
    });
    req.on('error', (err) => done({ status: null, reason: reasonOf(err), detail: null }));
    req.end(p.body);
  });
}
