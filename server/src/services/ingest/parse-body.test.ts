import { MAX_INGEST_TELEGRAMS, MAX_JSON_DEPTH, MAX_TELEGRAM_CHARS } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors.js';
import { parseTelegramBody } from './parse-body.js';

const t = (id: string) => ({ id, timestamp: '2026-01-01T00:00:00Z', total_m3: 1.5 });
const refused = async (body: string) => {
  const err = await parseTelegramBody(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).statusCode).toBe(400);
  return (err as HttpError).message;
};

describe('parseTelegramBody', () => {
  it('reads one object, an array and JSON lines, keeping each telegram as sent', async () => {
    expect(await parseTelegramBody(` ${JSON.stringify(t('1'))}\n`)).toEqual([
      { position: 1, json: t('1'), raw: JSON.stringify(t('1')) },
    ]);
    const array = await parseTelegramBody(`[ ${JSON.stringify(t('1'))} ,\n${JSON.stringify(t('2'), null, 1)}]`);
    expect(array.map((i) => [i.position, i.json.id, i.raw])).toEqual([
      [1, '1', JSON.stringify(t('1'))],
      [2, '2', JSON.stringify(t('2'), null, 1)],
    ]);
    const lines = await parseTelegramBody(`${JSON.stringify(t('1'))}\n\n${JSON.stringify(t('2'))}\n`);
    expect(lines.map((i) => [i.position, i.json.id])).toEqual([
      [1, '1'],
      [3, '2'],
    ]);
    expect(await parseTelegramBody('[]')).toEqual([]);
    // Brackets and quotes inside strings do not count.
    expect((await parseTelegramBody('[{"id":"a]}\\"[{"}]'))[0]!.json).toEqual({ id: 'a]}"[{' });
  });

  it('names line and column of an error, also deep into a large body', async () => {
    const good = JSON.stringify(t('12345678'));
    const many = Array.from({ length: 20_000 }, () => good).join(',\n');
    expect(await refused(`[${many}\n}]`)).toMatch(/line 20001, column 1 .*Unexpected token '}'/);
    expect(await refused(`[${many},\n{"id": tru}]`)).toMatch(/line 20001, column 11 /);
    expect(await refused(`[${good},]`)).toMatch(/line 1, column \d+/);
    expect(await refused(`[${good}`)).toMatch(/Unexpected end/);
    expect(await refused(`${good} ${good}`)).toMatch(/line 1, column \d+/);
    expect(await refused(`${good}\n{"id": "1",`)).toMatch(/line 2/);
  });

  it(`refuses a telegram nested deeper than ${MAX_JSON_DEPTH} levels or longer than ${MAX_TELEGRAM_CHARS} characters`, async () => {
    const deep = (n: number) => `{"id":"1","x":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(await refused(deep(10_000))).toMatch(/nested more than 64 levels/);
    expect(await refused(`[${JSON.stringify(t('1'))},${deep(MAX_JSON_DEPTH)}]`)).toMatch(/Telegram 2 is nested/);
    expect((await parseTelegramBody(deep(MAX_JSON_DEPTH - 1)))[0]!.json.id).toBe('1');
    const long = JSON.stringify({ ...t('1'), note: 'x'.repeat(MAX_TELEGRAM_CHARS) });
    expect(await refused(`${JSON.stringify(t('2'))}\n${long}`)).toMatch(/Line 2 is longer/);
  });

  it(`stops at ${MAX_INGEST_TELEGRAMS} telegrams`, async () => {
    const body = `[${Array.from({ length: MAX_INGEST_TELEGRAMS + 1 }, () => '{}').join(',')}]`;
    expect(await refused(body)).toMatch(/At most/);
  });
});
