import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import ipaddr from 'ipaddr.js';

/** Configuration, read and validated once. Every variable is listed in README.md. */
export interface Config {
  port: number;
  host: string;
  /** A PostgreSQL server; undefined = embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** A streaming standby of that server for read-only work (docs/scaling.md); undefined = none. */
  databaseReadUrl?: string | undefined;
  dataDir: string;
  tokenSecret: Uint8Array;
  /** 32 bytes that encrypt meter keys at rest (AES-256-GCM; docs/collectors.md); undefined = none (tests that need none). */
  keyEncryptionKey?: Buffer | undefined;
  /** Lifetime of a sign-in token, in seconds. */
  tokenTtlSeconds: number;
  /** The provider's time zone: day bounds of every period are taken there. */
  timeZone: string;
  /** Demo data size for the first start of an empty embedded database (0 = no demo data). */
  demoSize: DemoSize;
  logLevel: string;
  /** Sign-in requests per minute from one address, per server instance (a flood guard; the throttling is `throttle`). */
  loginRateLimit: number;
  /** Sign-in and registration throttling, kept in the database (docs/security.md). */
  throttle: ThrottleSettings;
  /** Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs); false = none. */
  trustProxy: string[] | false;
  /** Folder of the built web app to serve; undefined = none. */
  webDir: string | undefined;
  /** Mail server for the daily anomaly digest (smtp://user:pass@host:587); undefined = no digests. */
  smtpUrl?: string | undefined;
  /** Sender address of the digest. */
  mailFrom?: string;
  /** The product's address for links in e-mails, e.g. https://rodmenys.example.lt. */
  publicUrl?: string | undefined;
  /** Run the scheduled data-quality work in this process (default true). */
  scheduler?: boolean;
  /** Internal networks outgoing calls (webhooks) may reach, CIDRs (services/outgoing.ts); absent = none. */
  outgoingAllowedNetworks?: string[];
}

export type DemoSize = 'none' | 'small' | 'medium' | 'large';

export class ConfigError extends Error {}

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

/** How sign-ins and registrations are throttled (services/users/sign-in-throttle.ts; docs/security.md). */
export interface ThrottleSettings {
  /** Failures of one account from one address before delays start. */
  signInFreeFailures: number;
  /** Failures of one account from addresses it never signed in from, before delays start there. */
  signInAccountFreeFailures: number;
  /** Failures from one address, whatever the account, before delays start. */
  signInAddressFreeFailures: number;
  /** The first delay; each further failure doubles it. */
  signInDelaySeconds: number;
  /** The longest delay. */
  signInMaxDelaySeconds: number;
  /** A counter without failures for this long starts again from zero. */
  signInForgetSeconds: number;
  /** Self-registrations from one address per window. */
  registerLimit: number;
  registerWindowSeconds: number;
  /** The occupant's code page (docs/security.md, "The occupant's code page"): attempts per window per flat, */
  occupantCodeFlatAttempts: number;
  /** … per client address, */
  occupantCodeAddressAttempts: number;
  /** … and overall; */
  occupantCodeAllAttempts: number;
  /** the window. */
  occupantCodeWindowSeconds: number;
}

/** The throttling settings of README.md's table; `{}` gives the defaults. */
export function throttleSettings(env: NodeJS.ProcessEnv): ThrottleSettings {
  return {
    signInFreeFailures: intVar(env, 'SIGNIN_FREE_FAILURES', 5, 1, 1000),
    signInAccountFreeFailures: intVar(env, 'SIGNIN_ACCOUNT_FREE_FAILURES', 10, 1, 100000),
    signInAddressFreeFailures: intVar(env, 'SIGNIN_ADDRESS_FREE_FAILURES', 30, 1, 100000),
    signInDelaySeconds: intVar(env, 'SIGNIN_DELAY_SECONDS', 1, 1, 3600),
    signInMaxDelaySeconds: intVar(env, 'SIGNIN_MAX_DELAY_SECONDS', 900, 1, 86400),
    signInForgetSeconds: intVar(env, 'SIGNIN_FORGET_SECONDS', 3600, 60, 30 * 86400),
    registerLimit: intVar(env, 'REGISTER_LIMIT', 10, 1, 100000),
    registerWindowSeconds: intVar(env, 'REGISTER_WINDOW_SECONDS', 3600, 1, 30 * 86400),
    occupantCodeFlatAttempts: intVar(env, 'OCCUPANT_CODE_PER_FLAT', 5, 1, 1000),
    occupantCodeAddressAttempts: intVar(env, 'OCCUPANT_CODE_PER_ADDRESS', 20, 1, 100000),
    occupantCodeAllAttempts: intVar(env, 'OCCUPANT_CODE_OVERALL', 1000, 1, 1000000),
    occupantCodeWindowSeconds: intVar(env, 'OCCUPANT_CODE_WINDOW_SECONDS', 3600, 60, 30 * 86400),
  };
}

/** Names proxy-addr (Fastify's trustProxy) accepts for whole ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: a comma-separated list of proxy addresses or CIDRs (or the names
 * loopback, linklocal, uniquelocal). `true` is refused: it would let any client
 * choose its own address with X-Forwarded-For.
 */
export function trustProxyList(raw: string | undefined): string[] | false {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'false') return false;
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    if (PROXY_RANGE_NAMES.has(entry)) continue;
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address ?? '');
    const maxBits = version === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!version || !bitsOk || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY must list the proxies' addresses or CIDRs (e.g. 127.0.0.1,10.0.0.0/8), got "${entry}"`,
      );
    }
  }
  return list;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The token secret: TOKEN_SECRET, else a random one kept in the data folder. */
function tokenSecret(env: NodeJS.ProcessEnv, dataDir: string): Uint8Array {
  const given = env.TOKEN_SECRET;
  if (given) {
    if (given.length < 32) throw new ConfigError('TOKEN_SECRET must be at least 32 characters');
    return new TextEncoder().encode(given);
  }
  const file = path.join(dataDir, 'token-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/**
 * The key that encrypts meter keys at rest: KEY_ENCRYPTION_KEY (64 hex characters, or 32 bytes
 * in base64), else a random one kept in the data folder (like the token secret). Losing it
 * loses the stored meter keys: back it up with the database, but not in the same place.
 */
function keyEncryptionKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const given = env.KEY_ENCRYPTION_KEY?.trim();
  if (given) {
    const key = /^[0-9a-fA-F]{64}$/.test(given) ? Buffer.from(given, 'hex') : Buffer.from(given, 'base64');
    if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(given) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(given))) {
      throw new ConfigError('KEY_ENCRYPTION_KEY must be 32 bytes: 64 hex characters or 44 base64 characters');
    }
    return key;
  }
  const file = path.join(dataDir, 'key-encryption-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length !== 32) throw new ConfigError(`${file} must hold 64 hex characters`);
  return key;
}

/** Parses one CIDR or address (`10.0.0.0/8`, `192.168.1.20`, `fd00::/8`); null when it is neither. */
export function parseNetwork(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text);
    if (!isIP(text)) return null;
    const a = ipaddr.parse(text);
    return [a, a.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/**
 * OUTGOING_ALLOWED_NETWORKS: comma-separated CIDRs or addresses of internal networks that webhook receivers
 * may be on (docs/integration.md, "Where a receiver may be"); empty = none.
 */
export function outgoingNetworks(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list)
    if (!parseNetwork(entry))
      throw new ConfigError(
        `OUTGOING_ALLOWED_NETWORKS must list networks as CIDRs or addresses (e.g. 10.20.0.0/16), got "${entry}"`,
      );
  return list;
}

function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const url = env.SMTP_URL || undefined;
  if (url && !/^smtps?:\/\//.test(url)) throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  return url;
}

/** DATA_DIR as an absolute path (default `./.data`), without creating anything in it. */
export const dataDirOf = (env: NodeJS.ProcessEnv = process.env): string =>
  path.resolve(env.DATA_DIR || path.join(process.cwd(), '.data'));

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = dataDirOf(env);
  const timeZone = env.TIME_ZONE || 'Europe/Vilnius';
  if (!isValidTimeZone(timeZone)) throw new ConfigError(`TIME_ZONE "${timeZone}" is not a known time zone`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const databaseReadUrl = env.DATABASE_READ_URL || undefined;
  if (databaseReadUrl && !databaseUrl) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL (its primary)');
  if (databaseReadUrl && !/^postgres(ql)?:\/\//.test(databaseReadUrl)) {
    throw new ConfigError('DATABASE_READ_URL must start with postgres:// or postgresql://');
  }
  const demoSize = (env.DEMO_DATA || 'small') as DemoSize;
  if (!['none', 'small', 'medium', 'large'].includes(demoSize)) {
    throw new ConfigError('DEMO_DATA must be none, small, medium or large');
  }
  return {
    port: intVar(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    databaseReadUrl,
    dataDir,
    tokenSecret: tokenSecret(env, dataDir),
    keyEncryptionKey: keyEncryptionKey(env, dataDir),
    tokenTtlSeconds: intVar(env, 'TOKEN_TTL_SECONDS', 12 * 3600, 60, 30 * 24 * 3600),
    timeZone,
    demoSize,
    logLevel: env.LOG_LEVEL || 'info',
    loginRateLimit: intVar(env, 'LOGIN_RATE_LIMIT', 60, 1, 100000),
    throttle: throttleSettings(env),
    trustProxy: trustProxyList(env.TRUST_PROXY),
    webDir:
      env.WEB_DIR === '' ? undefined : path.resolve(env.WEB_DIR || path.join(import.meta.dirname, '../../web/dist')),
    smtpUrl: smtpUrl(env),
    mailFrom: env.MAIL_FROM || 'Rodmenys <rodmenys@localhost>',
    publicUrl: env.PUBLIC_URL || undefined,
    scheduler: env.SCHEDULER !== 'false',
    outgoingAllowedNetworks: outgoingNetworks(env.OUTGOING_ALLOWED_NETWORKS),
  };
}
