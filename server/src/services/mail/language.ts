/** The languages a mail is written in: the recipient's choice on their profile (`app_user.language`). */
export type MailLanguage = 'lt' | 'en';

/** A stored language as a mail language: anything but `en` is Lithuanian, the product's first language. */
export function mailLanguage(stored: string | null | undefined): MailLanguage {
  return stored === 'en' ? 'en' : 'lt';
}

const MONTHS: Record<MailLanguage, readonly string[]> = {
  lt: [
    'sausio',
    'vasario',
    'kovo',
    'balandžio',
    'gegužės',
    'birželio',
    'liepos',
    'rugpjūčio',
    'rugsėjo',
    'spalio',
    'lapkričio',
    'gruodžio',
  ],
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
};

/** A month (`YYYY-MM`) named in a language: "2026 m. spalio mėn." / "October 2026". */
export function monthName(month: string, lang: MailLanguage): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return lang === 'lt' ? `${y} m. ${MONTHS.lt[m - 1]} mėn.` : `${MONTHS.en[m - 1]} ${y}`;
}
