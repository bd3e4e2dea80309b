import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The Content-Security-Policy of every answer. The web app is plain files from this
 * origin: scripts, workers, fonts and API calls come from 'self' only. Styles allow
 * 'unsafe-inline' because Ant Design writes its component styles into <style> elements at
 * run time (CSS-in-JS); no inline script is ever allowed. Frames: none, ours or others'.
 * Images may be `blob:` URLs: files fetched with the user's session (a declared reading's photo)
 * are shown from the blob the app made of them.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** One year, the value HSTS preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** What helmet is asked for: its defaults but for the choices below. */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  // Sent only over TLS (below): over plain HTTP the header means nothing and would
  // confuse a test on http://127.0.0.1.
  strictTransportSecurity: false,
  referrerPolicy: { policy: 'no-referrer' },
  frameguard: { action: 'deny' },
  // The web app loads nothing from other origins; nothing to isolate against.
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets with HELMET_OPTIONS, and those it removes, found once by running its
 * middleware on a stand-in answer. None of them depends on the request (no nonces), so every answer
 * gets the same list; building them from the options on every request cost about 4 % of a small
 * request's time (docs/benchmarks.md, "LoRaWAN ingest").
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): {
  set: ReadonlyArray<readonly [string, string]>;
  removed: readonly string[];
} {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const answer = {
    setHeader(name: string, value: unknown) {
      set.set(name, String(value));
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.push(name);
    },
  };
  let finished = false;
  helmet(options)({} as never, answer as never, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // helmet's middleware is synchronous; a version that is not would leave headers unset.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return { set: [...set], removed };
}

/**
 * Security headers on every answer (API, web app, errors): CSP, nosniff, no framing,
 * a strict Referrer-Policy, and HSTS when the request reached us over TLS (directly,
 * or through a trusted proxy that says so in X-Forwarded-Proto). See docs/ARCHITECTURE.md (Decisions).
 * Set on the raw answer at the request's start (as helmet does), so that every answer, an error's
 * or a 404's included, carries them.
 */
export default fp(async function headers(app: FastifyInstance) {
  const { set, removed } = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of set) raw.setHeader(name, value);
    for (const name of removed) raw.removeHeader(name);
    if (request.protocol === 'https') raw.setHeader('strict-transport-security', HSTS);
    done();
  });
});
