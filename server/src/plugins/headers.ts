import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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

/**
 * Security headers on every answer (API, web app, errors): CSP, nosniff, no framing,
 * a strict Referrer-Policy, and HSTS when the request reached us over TLS (directly,
 * or through a trusted proxy that says so in X-Forwarded-Proto). See docs/ARCHITECTURE.md (Decisions).
 */
export default fp(async function headers(app: FastifyInstance) {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // Sent only over TLS (below): over plain HTTP the header means nothing and would
    // confuse a test on http://127.0.0.1.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // The web app loads nothing from other origins; nothing to isolate against.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
});
