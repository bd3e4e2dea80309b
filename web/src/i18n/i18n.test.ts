import { AUDIT_KINDS, ERROR_MESSAGES, IMPORT_ERROR_CODES } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import i18n from '.';
import en from './en.json';
import lt from './lt.json';

type Tree = { [key: string]: string | Tree };
const entries = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : entries(value, `${prefix}${key}.`),
  );

describe('translations', () => {
  it('have the same keys in Lithuanian and English', () => {
    expect(
      entries(en)
        .map(([k]) => k)
        .sort(),
    ).toEqual(
      entries(lt)
        .map(([k]) => k)
        .sort(),
    );
  });
  it('hold every server error code: the English text is the server’s own, the Lithuanian one differs', () => {
    expect(en.serverErrors).toEqual(ERROR_MESSAGES);
    const lithuanian = new Map(entries(lt));
    for (const [code, text] of Object.entries(ERROR_MESSAGES)) {
      const translated = lithuanian.get(`serverErrors.${code}`);
      expect(translated, code).toBeDefined();
      expect(translated, code).not.toBe(text);
    }
    expect(Object.keys(lt.serverErrors).sort()).toEqual(Object.keys(ERROR_MESSAGES).sort());
  });
  it('have no empty texts and the same placeholders in both languages', () => {
    const english = new Map(entries(en));
    for (const [key, text] of entries(lt)) {
      expect(text.trim(), key).not.toBe('');
      const placeholders = (s: string) => [...s.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
      expect(placeholders(english.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });
  it('translate every register-import error code and, from the contract, every audit kind', () => {
    const english = new Map(entries(en));
    const lithuanian = new Map(entries(lt));
    for (const code of IMPORT_ERROR_CODES) {
      expect(english.has(`masterData.errors.${code}`), code).toBe(true);
      expect(lithuanian.has(`masterData.errors.${code}`), code).toBe(true);
    }
    for (const kind of AUDIT_KINDS) {
      expect(i18n.t(`audit.kinds.${kind}`, { lng: 'en' }), kind).not.toBe(`audit.kinds.${kind}`);
      expect(i18n.t(`audit.kinds.${kind}`, { lng: 'lt' }), kind).not.toBe(i18n.t(`audit.kinds.${kind}`, { lng: 'en' }));
    }
  });
});
