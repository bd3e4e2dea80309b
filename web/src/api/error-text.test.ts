import * as contract from '@rodmenys/contract';
import { type Endpoint, ERROR_MESSAGES } from '@rodmenys/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n';
import en from '../i18n/en.json';
import lt from '../i18n/lt.json';
import { fieldLabel, settingLabel, translateServerError } from './error-text';

// Every field name an endpoint can name in a 400 (its path, query and body properties, nested
// ones included), and every error code with such a field, reads fully in the UI language.
const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' && v !== null && typeof (v as Endpoint).method === 'string' && 'path' in v;

function fieldNames(): string[] {
  const names = new Set<string>();
  const walk = (schema: unknown) => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    if (s.properties)
      for (const [name, inner] of Object.entries(s.properties)) {
        names.add(name);
        walk(inner);
      }
    walk(s.items);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[key])) s[key].forEach(walk);
  };
  for (const value of Object.values(contract)) {
    if (!isEndpoint(value)) continue;
    const e = value as Endpoint & Record<string, unknown>;
    walk(e.params);
    walk(e.querystring);
    walk(e.body);
  }
  return [...names].sort();
}

afterAll(() => changeLanguage('lt'));

describe('server errors in the UI language', () => {
  const names = fieldNames();

  it('finds the fields of the contract', () => {
    expect(names.length).toBeGreaterThan(40);
    expect(names).toEqual(expect.arrayContaining(['dateFrom', 'installedAt', 'username', 'value']));
  });

  it('every field name an endpoint takes has a label in both languages', () => {
    const missing = (labels: Record<string, string>) => names.filter((n) => !(n in labels));
    expect(missing(lt.fields)).toEqual([]);
    expect(missing(en.fields)).toEqual([]);
  });

  it('every error code naming any of those fields reads without the English text or the raw name (lt)', async () => {
    await changeLanguage('lt');
    for (const code of Object.keys(ERROR_MESSAGES)) {
      for (const field of names) {
        const english = ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES];
        const placeholders = [...english.matchAll(/{{(\w+)}}/g)].map((m) => m[1] as string);
        const params: Record<string, string> = Object.fromEntries(placeholders.map((p) => [p, '7']));
        params.field = field;
        const text = translateServerError({ code, params, message: english });
        expect(text, `${code} ${field}`).not.toBe(english);
        if (/{{field}}/.test(lt.serverErrors[code as keyof typeof lt.serverErrors]))
          expect(text, `${code} ${field}`).toContain(lt.fields[field as keyof typeof lt.fields]);
        expect(text, `${code} ${field}`).not.toMatch(/{{\w+}}/);
      }
    }
  });

  it('a path into a list is labelled by its last name and the item number', async () => {
    await changeLanguage('en');
    expect(fieldLabel('devices.3.installedAt')).toBe(`${en.fields.installedAt}, 4`);
    expect(fieldLabel('username')).toBe(en.fields.username);
    expect(fieldLabel('no.such')).toBe('no.such');
    await changeLanguage('lt');
    expect(fieldLabel('devices.3.installedAt')).toBe(`${lt.fields.installedAt}, 4`);
  });

  it('a data-quality setting is named in the UI language, not by its key', async () => {
    const error = { code: 'settingNumber', params: { key: 'monthEnd.toleranceDays', min: '0', max: '31' } };
    await changeLanguage('lt');
    const ltText = translateServerError(error);
    expect(ltText).toContain(`„${lt.anomalies.settingNames.monthEnd.toleranceDays}“`);
    expect(ltText).not.toContain('monthEnd.toleranceDays');
    await changeLanguage('en');
    const enText = translateServerError(error);
    expect(enText).toContain(en.anomalies.settingNames.monthEnd.toleranceDays);
    expect(enText).not.toContain('monthEnd.toleranceDays');
    expect(settingLabel('no.such')).toBe('no.such');
  });
});
