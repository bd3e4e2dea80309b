import { badRequest } from '../../errors.js';

/** JSON escapes PostgreSQL's jsonb refuses: U+0000, and a surrogate without its pair (as JSON.stringify writes one). */
const UNSTORABLE_ESCAPE =
  /\\u0000|\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/;
/** A surrogate without its pair: PostgreSQL's text refuses it, as it refuses U+0000. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether text holds what PostgreSQL cannot store. */
export const unstorableText = (s: string): boolean => s.includes('\u0000') || LONE_SURROGATE.test(s);

/**
 * An LNS's decoded object is kept as jsonb (diagnosis, field mappings): one holding U+0000 or a
 * lone surrogate, which jsonb cannot store, is a 400 naming the field rather than a failed insert.
 */
export function checkStorableObject(v: unknown, field: string): void {
  if (v === undefined || v === null) return;
  if (UNSTORABLE_ESCAPE.test(JSON.stringify(v)))
    throw badRequest('lnsFieldInvalid', { field, reason: 'holds U+0000 or a lone surrogate' }, field);
}
