/**
 * Whether an error means the database is away (stopped, restarting, unreachable) rather than a
 * fault of the request or the code: the server then answers 503 with Retry-After
 * (docs/operations.md, "The database away"). Node's socket errors, PostgreSQL's shutdown and
 * connection classes (57P01-57P03, 08xxx), a write refused by a read-only server (25006: the
 * writer's address led to a standby, as for a moment during a failover; docs/operations.md,
 * "Failover"), and the pg driver's own texts for a lost connection.
 */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SERVER = new Set(['57P01', '57P02', '57P03', '25006']);
const DRIVER =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly)/;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK.has(code) || SERVER.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (err instanceof Error && DRIVER.test(err.message)) return true;
  const cause = (err as { cause?: unknown }).cause;
  const inner = err instanceof AggregateError ? err.errors : [];
  return [cause, ...inner].some((e) => isDatabaseUnavailable(e, depth + 1));
}

/** Seconds a client waits before trying again while the database is away. */
export const RETRY_AFTER_SECONDS = 5;
