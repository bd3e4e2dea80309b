import { ERROR_MESSAGES, GROUP, listDqSettings, updateDqSetting } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeSignedIn, type SignedIn } from '../../test/factories.js';

// A refused setting answers an error code with its limits as params, never an English sentence
// inside the params: the web app writes the whole message in the user's language.
const t = useApp();
let operator: SignedIn;

beforeAll(async () => {
  operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
});

const put = (key: string, value: unknown) =>
  inject(t.app, updateDqSetting, { params: { key }, body: { value }, token: operator.token });

describe(`PUT /api/data-quality/settings/:key (${dbKind()})`, () => {
  it.each([
    ['monthEnd.toleranceDays', 40, 'settingNumber', { min: '0', max: '31' }],
    ['monthEnd.keepMonths', 2.5, 'settingWholeNumber', { min: '1', max: '120' }],
    ['silent.days', { 1: 0 }, 'settingDaysPerType', { min: '1', max: '3650' }],
    ['heatingSeasonMonths', [1, 13], 'settingMonths', {}],
    ['sentinel.values', ['x'], 'settingNumbers', {}],
  ] as const)('%s = %j is refused as %s with its limits', async (key, value, code, limits) => {
    const res = await put(key, value);
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ code, params: { key, ...limits }, errors: [{ field: 'value', code }] });
    expect(Object.keys(res.error.params ?? {}).sort()).toEqual(['field', 'key', ...Object.keys(limits)].sort());
    expect(code in ERROR_MESSAGES).toBe(true);
  });

  it('an accepted value is stored; an unknown key is settingNotFound', async () => {
    expect((await put('monthEnd.toleranceDays', 3)).status).toBe(200);
    const list = await inject(t.app, listDqSettings, { token: operator.token });
    expect(list.body.find((s) => s.Key === 'monthEnd.toleranceDays')?.Value).toBe(3);
    const res = await put('no.such', 1);
    expect(res.status).toBe(404);
    expect(res.error.code).toBe('settingNotFound');
  });
});
