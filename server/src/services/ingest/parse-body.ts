import { MAX_INGEST_TELEGRAMS, MAX_JSON_DEPTH, MAX_TELEGRAM_CHARS } from '@rodmenys/contract';
import { badRequest } from '../../errors.js';
import type { TelegramItem } from './map-telegram.js';

/**
 * Work done between two yields to the event loop, in milliseconds: a 40 MB body
 * is parsed in slices so no other request waits longer than about this
 * (docs/ingest.md, "Big bodies"; `npm run bench:parse -w bench`).
 */
const SLICE_MS = 10;
/** Characters scanned between two looks at the clock. */
const SCAN_STEP = 256 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Yields to the event loop when the current slice has run SLICE_MS. */
class Slicer {
  private started = performance.now();
  async maybeYield(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

/** Line and column (1-based) of a character offset, counting lines from `from`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** 400 naming the line, column and character of a malformed body. */
function malformed(text: string, offset: number, reason: string): never {
  const { line, column } = lineColumn(text, offset);
  throw badRequest(
    'malformedJson',
    { line: String(line), column: String(column), offset: String(offset + 1), reason },
    'body',
  );
}

/**
 * Where JSON.parse fails inside one value (at most MAX_TELEGRAM_CHARS long, so
 * this stays cheap). V8 names the offset for most errors but not for an
 * unexpected token; then the shortest failing prefix is found by bisection (a
 * prefix of valid JSON only ever fails for want of more input).
 */
function jsonErrorOffset(value: string, err: Error): number {
  const named = /at position (\d+)/.exec(err.message);
  if (named) return Number(named[1]);
  const failsBefore = (end: number) => {
    try {
      JSON.parse(value.slice(0, end));
      return false;
    } catch (e) {
      const at = /at position (\d+)/.exec((e as Error).message);
      if (at) return Number(at[1]) < end;
      return !/^Unexpected end/.test((e as Error).message);
    }
  };
  let lo = 0;
  let hi = value.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (failsBefore(mid + 1)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const reasonOf = (err: Error) =>
  err.message.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');

/** One top-level value of the body: where it is, and how deep it nests. */
interface Span {
  start: number;
  end: number;
  tooDeep: boolean;
}

/**
 * Scans one JSON value from `start` (not whitespace) to its end, without parsing
 * it: strings are skipped, brackets counted. The value ends at a `,` or a closing
 * bracket at depth 0 (array mode), or at the end of its outermost bracket. Linear
 * in the length; yields to the event loop between steps.
 */
async function scanValue(text: string, start: number, inArray: boolean, slicer: Slicer): Promise<Span> {
  let depth = 0;
  let tooDeep = false;
  let i = start;
  let nextLook = start + SCAN_STEP;
  const n = text.length;
  for (; i < n; i++) {
    if (i >= nextLook) {
      nextLook = i + SCAN_STEP;
      await slicer.maybeYield();
    }
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) tooDeep = true;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) break; // the enclosing array's end (or a stray bracket: the caller decides)
      if (--depth === 0 && !inArray) return { start, end: i + 1, tooDeep };
    } else if (depth === 0 && (c === 0x2c || (!inArray && isSpace(c)))) {
      break;
    }
  }
  let end = i;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return { start, end, tooDeep };
}

/** Parses one value of at most MAX_TELEGRAM_CHARS; a malformed one is a 400 naming its position in the body. */
function parseValue(text: string, span: Span): unknown {
  const value = text.slice(span.start, span.end);
  try {
    return JSON.parse(value);
  } catch (err) {
    malformed(text, span.start + jsonErrorOffset(value, err as Error), reasonOf(err as Error));
  }
}

/** A value's place in the body: the nth telegram of an array, or a line of newline-delimited JSON. */
type Label = { kind: 'telegram' | 'line'; n: number };

/** The telegram of one value, or the reason it is refused before it is parsed. */
function checkSize(span: Span, label: Label): void {
  const n = String(label.n);
  if (span.end - span.start > MAX_TELEGRAM_CHARS) {
    throw badRequest(
      label.kind === 'telegram' ? 'telegramTooLong' : 'lineTooLong',
      { n, max: String(MAX_TELEGRAM_CHARS) },
      'body',
    );
  }
  if (span.tooDeep) {
    throw badRequest(
      label.kind === 'telegram' ? 'telegramTooDeep' : 'lineTooDeep',
      { n, max: String(MAX_JSON_DEPTH) },
      'body',
    );
  }
}

const tooMany = () => badRequest('tooManyTelegrams', { max: String(MAX_INGEST_TELEGRAMS) }, 'body');

/**
 * The telegrams of a collector request: one JSON object, an array of objects, or
 * JSON lines (one object per line, as wmbusmeters prints them). Anything that is
 * not JSON, or not objects, is a 400 naming the position, and nothing is stored;
 * so is a telegram longer than MAX_TELEGRAM_CHARS or nested deeper than
 * MAX_JSON_DEPTH (the embedded database cannot take a very deep document:
 * docs/input-limits.md). The body is split into its telegrams by one linear scan and
 * each telegram parsed on its own, yielding to the event loop every SLICE_MS, so a
 * huge body never holds up other requests and an error's position is found
 * within its telegram only.
 */
export async function parseTelegramBody(text: string): Promise<TelegramItem[]> {
  const slicer = new Slicer();
  let first = 0;
  while (first < text.length && isSpace(text.charCodeAt(first))) first++;
  if (first === text.length) throw badRequest('emptyIngestBody', {}, 'body');
  if (text.charCodeAt(first) === 0x5b) return parseArray(text, first, slicer);
  return parseLines(text, first, slicer);
}

async function parseArray(text: string, open: number, slicer: Slicer): Promise<TelegramItem[]> {
  const items: TelegramItem[] = [];
  let i = open + 1;
  const skipSpace = () => {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  };
  skipSpace();
  if (text.charCodeAt(i) === 0x5d) {
    i++;
  } else {
    for (;;) {
      skipSpace();
      if (i >= text.length) malformed(text, i, 'Unexpected end of JSON input');
      const span = await scanValue(text, i, true, slicer);
      if (span.end === span.start) malformed(text, i, `Unexpected token '${text[i]}'`);
      const position = items.length + 1;
      if (position > MAX_INGEST_TELEGRAMS) throw tooMany();
      checkSize(span, { kind: 'telegram', n: position });
      const json = parseValue(text, span);
      if (!isObject(json)) throw badRequest('telegramNotObject', { n: String(position) }, `body.${position}`);
      items.push({ position, json, raw: text.slice(span.start, span.end) });
      await slicer.maybeYield();
      i = span.end;
      skipSpace();
      const c = text.charCodeAt(i);
      if (c === 0x2c) {
        i++;
        continue;
      }
      if (c === 0x5d) {
        i++;
        break;
      }
      if (i >= text.length) malformed(text, i, 'Unexpected end of JSON input');
      malformed(text, i, `Unexpected token '${text[i]}'`);
    }
  }
  skipSpace();
  if (i < text.length) malformed(text, i, `Unexpected non-whitespace character after JSON`);
  return items;
}

/**
 * One object, or JSON lines: values one after another, each starting on its own
 * line (its position is that line's number). A single object may span lines.
 */
async function parseLines(text: string, first: number, slicer: Slicer): Promise<TelegramItem[]> {
  const spans: { span: Span; line: number }[] = [];
  let i = first;
  let line = 1;
  let counted = 0; // newlines counted up to here
  while (i < text.length) {
    for (let nl = text.indexOf('\n', counted); nl !== -1 && nl < i; nl = text.indexOf('\n', nl + 1)) {
      line++;
      counted = nl + 1;
    }
    if (spans.length && counted <= spans.at(-1)!.span.end) {
      malformed(text, i, `Unexpected non-whitespace character after JSON`);
    }
    const span = await scanValue(text, i, false, slicer);
    if (span.end === span.start) malformed(text, i, `Unexpected token '${text[i]}'`);
    if (spans.length === MAX_INGEST_TELEGRAMS) throw tooMany();
    spans.push({ span, line });
    i = span.end;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  }
  const single = spans.length === 1;
  const items: TelegramItem[] = [];
  for (const [k, { span, line: at }] of spans.entries()) {
    const position = single ? 1 : at;
    const label: Label = single ? { kind: 'telegram', n: 1 } : { kind: 'line', n: at };
    checkSize(span, label);
    const json = parseValue(text, span);
    if (!isObject(json)) {
      throw badRequest(
        label.kind === 'telegram' ? 'telegramNotObject' : 'lineNotObject',
        { n: String(label.n) },
        `body.${label.n}`,
      );
    }
    items.push({ position, json, raw: text.slice(span.start, span.end) });
    if (k % 64 === 0) await slicer.maybeYield();
  }
  return items;
}
