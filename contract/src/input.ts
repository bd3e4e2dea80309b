/**
 * Limits every request's input obeys, whatever the endpoint (docs/input-limits.md,
 * "Input limits"). The server enforces them in one place (routes/define.ts) for
 * every endpoint of this contract; an endpoint's own schema may only be stricter.
 */

/** Largest request body by default, in bytes; checked before the body is read. */
export const DEFAULT_BODY_BYTES = 256 * 1024;
/** The longest path parameter the router takes (characters, as sent); longer answers 414 `pathTooLong`. */
export const MAX_PATH_PARAM_CHARS = 100;
/** Largest body of the collector ingest and the file imports (`maxBodyBytes` of those endpoints). */
export const BULK_BODY_BYTES = 50 * 1024 * 1024;
/** Deepest nesting of arrays and objects in any JSON document: a request body or one collector telegram. */
export const MAX_JSON_DEPTH = 64;
/** Longest text field of a JSON body or query, in characters, when its schema names no shorter limit. */
export const MAX_TEXT_LENGTH = 10_000;
/** Largest whole number an id or count may be: PostgreSQL `integer`. */
export const MAX_INT = 2_147_483_647;
/**
 * Largest reading or initial/final reading a person may enter: twelve digits before
 * the decimal point, so it fits `numeric` and the readings screen shows it with
 * its three decimals.
 */
export const MAX_READING = 999_999_999_999;

/** One field at fault: as in the error body of every 400 (code and params: errors.ts ERROR_MESSAGES). */
export interface InputProblem {
  field: string;
  code: 'nulCharacter' | 'tooLong' | 'notFinite' | 'nulInFieldName';
  params: Record<string, string>;
  message: string;
}

/**
 * The problems of a request's decoded input that no JSON schema can express:
 * text containing U+0000 (PostgreSQL text cannot hold it), numbers that are not
 * finite (`1e309`, `Infinity`) and text longer than MAX_TEXT_LENGTH. `where` is
 * the field path of `value` ('' for a whole body). Stops at the first few problems.
 */
export function inputProblems(value: unknown, where = ''): InputProblem[] {
  const problems: InputProblem[] = [];
  const visit = (v: unknown, field: string): void => {
    if (problems.length >= 10) return;
    const name = field || 'body';
    if (typeof v === 'string') {
      if (v.includes('\u0000'))
        problems.push({
          field: name,
          code: 'nulCharacter',
          params: { field: name },
          message: `${name} must not contain the character U+0000`,
        });
      else if (v.length > MAX_TEXT_LENGTH)
        problems.push({
          field: name,
          code: 'tooLong',
          params: { field: name, limit: String(MAX_TEXT_LENGTH) },
          message: `${name} must NOT have more than ${MAX_TEXT_LENGTH} characters`,
        });
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v))
        problems.push({
          field: name,
          code: 'notFinite',
          params: { field: name },
          message: `${name} must be a finite number`,
        });
    } else if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, field ? `${field}.${i}` : String(i));
    } else if (typeof v === 'object' && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        const path = field ? `${field}.${key}` : key;
        if (key.includes('\u0000'))
          problems.push({
            field: 'body',
            code: 'nulInFieldName',
            params: { field: 'body' },
            message: 'a field name contains U+0000',
          });
        else visit(item, path);
      }
    }
  };
  visit(value, where);
  return problems;
}

/**
 * Nesting depth of a JSON text (arrays and objects), found in one pass without
 * parsing; strings are skipped, so brackets inside them do not count. Returns the
 * offset where `max` is exceeded, or -1. Linear and allocation-free: it runs before
 * JSON.parse, so a 10,000-deep document never reaches a recursive parser.
 */
export function jsonDepthExceeded(text: string, max = MAX_JSON_DEPTH, from = 0, to = text.length): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote, over escapes
      for (i++; i < to; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}
