import nodemailer, { type Transporter } from 'nodemailer';
import type { MailLanguage } from './language.js';
import { type MailTemplate, render } from './template.js';

/** What sending one mail came to: accepted by the SMTP server, or its error (at most 1,000 characters). */
export type SendOutcome = { accepted: true } | { accepted: false; error: string };

/**
 * The one way the server sends mail (docs/ARCHITECTURE.md, "Jobs and mail"): an SMTP transport,
 * the sender address and the product's public address for links. Created once at start when
 * SMTP_URL is set (`createMailer`); without it there is no mailer, and each mail job says so.
 */
export class Mailer {
  constructor(
    private readonly transport: Transporter,
    readonly from: string,
    /** The product's address without a trailing slash, for links in mails. */
    readonly baseUrl: string,
  ) {}

  /** A link into the web app: `link('/anomalies?id=3')`. */
  link(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  /** Sends a template to one recipient in their language; never throws for a refused or failed delivery. */
  async send<P>(to: string, lang: MailLanguage, template: MailTemplate<P>, params: P): Promise<SendOutcome> {
    try {
      const info = await this.transport.sendMail({ from: this.from, to, ...render(template, lang, params) });
      if (!info.accepted?.length)
        return { accepted: false, error: `rejected: ${String(info.response ?? '')}`.slice(0, 1000) };
      return { accepted: true };
    } catch (err) {
      return { accepted: false, error: (err instanceof Error ? err.message : String(err)).slice(0, 1000) };
    }
  }
}

/** The mailer of a configuration: undefined without SMTP_URL. */
export function createMailer(config: {
  smtpUrl?: string | undefined;
  mailFrom?: string | undefined;
  publicUrl?: string | undefined;
  host: string;
  port: number;
}): Mailer | undefined {
  if (!config.smtpUrl) return undefined;
  const baseUrl = (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '');
  return new Mailer(nodemailer.createTransport(config.smtpUrl), config.mailFrom ?? 'rodmenys@localhost', baseUrl);
}
