/** Month names as a date says them: Lithuanian in the genitive ("spalio"), English as is. */
const MONTHS = {
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

/** A month (YYYY-MM) in a language: "2026 m. spalio mėn." / "October 2026". */
export function monthName(month: string, lang: 'lt' | 'en'): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return lang === 'lt' ? `${y} m. ${MONTHS.lt[m - 1]} mėn.` : `${MONTHS.en[m - 1]} ${y}`;
}
