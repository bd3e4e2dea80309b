import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@rodmenys/contract';

const isLanguage = (value: string | null | undefined): value is Language =>
  (LANGUAGES as readonly string[]).includes(value ?? '');

/**
 * The language the occupant's pages open in (docs/occupant-access.md, "Language"): `?lang=` in the
 * address (the letter prints the code page's address with the occupancy's language), else the
 * reader's own choice made earlier in this browser, else the first of the browser's languages
 * (`navigator.languages`, what it sends as Accept-Language) the product has, else Lithuanian.
 */
export function readerLanguage(search: string, stored: Language | null, browser: readonly string[]): Language {
  const asked = new URLSearchParams(search).get('lang');
  if (isLanguage(asked)) return asked;
  if (stored) return stored;
  for (const tag of browser) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}
