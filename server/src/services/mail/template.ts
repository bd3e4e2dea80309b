import type { MailLanguage } from './language.js';

/** A mail as the recipient reads it. */
export interface MailText {
  subject: string;
  text: string;
}

/**
 * A mail template: for each language, the subject and the body made from the template's
 * parameters. The shared parts (the product name before the subject, the opt-in footer
 * after the body) are added by `render`, so every mail looks the same.
 */
export interface MailTemplate<P> {
  /** The subject without the product name: "new anomalies (2)". */
  subject: Record<MailLanguage, (params: P) => string>;
  /** The body's paragraphs, without the footer. */
  body: Record<MailLanguage, (params: P) => string>;
  /** Why the recipient gets it: the footer's words (each mail names itself: digest, notice). */
  footer: Record<MailLanguage, string>;
}

/** The product's name in every subject. */
export const SUBJECT_PREFIX = 'Rodmenys: ';

/** The footer of a mail the recipient opted into on their profile, naming the mail (accusative + pronoun). */
export const OPT_IN_FOOTER = {
  digest: {
    lt: 'Šią santrauką gaunate, nes ją užsisakėte savo profilyje.',
    en: 'You get this digest because you opted in on your profile.',
  },
  notice: {
    lt: 'Šį pranešimą gaunate, nes jį užsisakėte savo profilyje.',
    en: 'You get this notice because you opted in on your profile.',
  },
} satisfies Record<string, Record<MailLanguage, string>>;

/** The subject and text of a template in a language: prefix, body, a blank line, the footer. */
export function render<P>(template: MailTemplate<P>, lang: MailLanguage, params: P): MailText {
  return {
    subject: `${SUBJECT_PREFIX}${template.subject[lang](params)}`,
    text: `${template.body[lang](params)}\n\n${template.footer[lang]}\n`,
  };
}
