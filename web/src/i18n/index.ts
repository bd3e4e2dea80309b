import { AUDIT_KIND_LABELS, type Language } from '@rodmenys/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/lt';
import 'dayjs/locale/en-gb';
import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { getStoredLanguage, setStoredLanguage } from '../storage';
import en from './en.json';
import lt from './lt.json';

/**
 * The audit kinds' names come from the contract (the server's audit export writes the same):
 * `audit.kinds.<entity>.<verb>`, since i18next reads the dot in `device.replace` as nesting.
 */
function auditKinds(lang: Language): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [kind, labels] of Object.entries(AUDIT_KIND_LABELS)) {
    const [entity, verb] = kind.split('.') as [string, string];
    out[entity] = { ...out[entity], [verb]: labels[lang] };
  }
  return out;
}

const withKinds = <T extends { audit: object }>(texts: T, lang: Language) => ({
  ...texts,
  audit: { ...texts.audit, kinds: auditKinds(lang) },
});

export const resources = {
  lt: { translation: withKinds(lt, 'lt') },
  en: { translation: withKinds(en, 'en') },
} as const;

/** dayjs locale per UI language: English weeks start on Monday too (docs/domain.md §10), hence en-gb. */
const DAYJS_LOCALE: Record<Language, string> = { lt: 'lt', en: 'en-gb' };

const initial = getStoredLanguage();
dayjs.locale(DAYJS_LOCALE[initial]);
document.documentElement.lang = initial;

void i18n.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: 'lt',
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Switches the UI language, remembers it in the browser and makes dates and calendars follow. */
export async function changeLanguage(language: Language): Promise<void> {
  setStoredLanguage(language);
  dayjs.locale(DAYJS_LOCALE[language]);
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

/** The active language. */
export function useLanguage(): Language {
  const { i18n: instance } = useTranslation();
  return instance.resolvedLanguage === 'en' ? 'en' : 'lt';
}

export default i18n;
