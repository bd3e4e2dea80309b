import { AUDIT_KINDS, IMPORT_ERROR_CODES } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { masterDataTexts } from './translations';

type Tree = { [key: string]: string | string[] | Tree };
const entries = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : Array.isArray(value)
        ? value.map((v, i) => [`${prefix}${key}.${i}`, v] as [string, string])
        : entries(value, `${prefix}${key}.`),
  );

describe('master data and audit translations', () => {
  const en = new Map(entries(masterDataTexts.en));
  const lt = new Map(entries(masterDataTexts.lt));

  it('have the same keys and placeholders in both languages, none empty', () => {
    expect([...lt.keys()].sort()).toEqual([...en.keys()].sort());
    const placeholders = (s: string) => [...s.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    for (const [key, text] of lt) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(en.get(key)!), key).toEqual(placeholders(text));
    }
  });

  it('translate every import error code and audit kind of the contract', () => {
    for (const code of IMPORT_ERROR_CODES) expect(en.has(`masterData.errors.${code}`), code).toBe(true);
    for (const kind of AUDIT_KINDS) expect(en.has(`audit.kinds.${kind}`), kind).toBe(true);
  });
});
