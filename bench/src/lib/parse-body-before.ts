// The collector body parser as it was before docs/ingest.md "Big bodies" (commit e1e5046), kept
// only so `npm run bench:parse -w bench` can show before and after side by side. Not used by the server.
import { MAX_INGEST_TELEGRAMS } from '@rodmenys/contract';
import { HttpError } from '@rodmenys/server/errors.js';
import type { TelegramItem } from '@rodmenys/server/services/ingest/map-telegram.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/**
 * Where JSON.parse fails. V8 names the offset for most errors but not for an
 * unexpected token; then the shortest failing prefix is found by bisection
 * (a prefix of valid JSON only ever fails for want of more input).
 */
function jsonErrorOffset(text: string, err: Error): number {
  const named = /at position (\d+)/.exec(err.message);
  if (named) return Number(named[1]);
  const failsBefore = (end: number) => {
    try {
      JSON.parse(text.slice(0, end));
      return false;
    } catch (e) {
      const at = /at position (\d+)/.exec((e as Error).message);
      if (at) return Number(at[1]) < end;
      return !/^Unexpected end/.test((e as Error).message);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (failsBefore(mid + 1)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The parser as it was: its English messages as they were (a 400 with the generic code). */
const before = (message: string, field: string) =>
  new HttpError(400, 'badRequest', {}, [{ field, code: 'badRequest', message }], undefined, message);

/** 400 for text that is not JSON; `line` when the text is one line of JSON lines. */
function malformed(text: string, err: Error, line?: number): never {
  const offset = jsonErrorOffset(text, err);
  const where = line ? `line ${line}, column ${offset + 1}` : `${lineColumn(text, offset)} (character ${offset + 1})`;
  const reason = err.message.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
  throw before(`Malformed JSON at ${where}: ${reason}`, 'body');
}

/**
 * The telegrams of a collector request: one JSON object, an array of objects, or
 * JSON lines (one object per line, as wmbusmeters prints them). Anything that is
 * not JSON, or not objects, is a 400 naming the position, and nothing is stored.
 */
export function parseTelegramBody(text: string): TelegramItem[] {
  const body = text.trim();
  if (body === '') throw before('The body is empty: send wmbusmeters JSON', 'body');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    if (body.startsWith('{') && body.includes('\n')) return parseJsonLines(text);
    malformed(text, err as Error);
  }
  const items = Array.isArray(doc) ? doc : [doc];
  if (items.length > MAX_INGEST_TELEGRAMS) {
    throw before(`At most ${MAX_INGEST_TELEGRAMS} telegrams per request`, 'body');
  }
  return items.map((json, i) => {
    if (!isObject(json)) throw before(`Telegram ${i + 1} is not a JSON object`, `body.${i + 1}`);
    return { position: i + 1, json, raw: Array.isArray(doc) ? JSON.stringify(json) : body };
  });
}

function parseJsonLines(text: string): TelegramItem[] {
  const items: TelegramItem[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const raw = line.trim();
    if (raw === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      malformed(line, err as Error, i + 1);
    }
    if (!isObject(json)) throw before(`Line ${i + 1} is not a JSON object`, `body.${i + 1}`);
    if (items.length === MAX_INGEST_TELEGRAMS) {
      throw before(`At most ${MAX_INGEST_TELEGRAMS} telegrams per request`, 'body');
    }
    items.push({ position: i + 1, json, raw });
  }
  return items;
}
