/** Mail (docs/ARCHITECTURE.md, "Jobs and mail"): one transport, opt-ins, languages, templates. */
export { type MailLanguage, mailLanguage, monthName } from './language.js';
export { createMailer, Mailer, type SendOutcome } from './mailer.js';
export { type OptIn, type OptInState, optedIn, readOptIn, writeOptIn } from './opt-in.js';
export { type MailTemplate, type MailText, OPT_IN_FOOTER, render, SUBJECT_PREFIX } from './template.js';
