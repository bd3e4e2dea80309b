/** The languages a mail is written in: the recipient's choice on their profile (`app_user.language`). */
export type MailLanguage = 'lt' | 'en';

/** A stored language as a mail language: anything but `en` is Lithuanian, the product's first language. */
export function mailLanguage(stored: string | null | undefined): MailLanguage {
  return stored === 'en' ? 'en' : 'lt';
}

// A month's name in a mail is the same as on the PDF: one list (services/month-name.ts).
export { monthName } from '../month-name.js';
