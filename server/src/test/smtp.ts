import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { Mailer } from '../services/mail/index.js';

/** A message as the SMTP server received it. */
export interface Delivered {
  from: string;
  to: string[];
  raw: string;
}

const fromLatin1Hex = (text: string) =>
  Buffer.from(
    text.replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/**
 * A message as a reader's mail program shows it: headers unfolded with their
 * encoded words (RFC 2047) decoded, the quoted-printable body decoded.
 */
export function decodeMail(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers = head
    .replace(/\r?\n[ \t]+/g, ' ')
    // The space between adjacent encoded words is not part of the text.
    .replace(/\?=\s+=\?utf-8\?Q\?/gi, '')
    .replace(/=\?utf-8\?Q\?([^?]*)\?=/gi, (_, q: string) => fromLatin1Hex(q.replace(/_/g, ' ')));
  return `${headers}\r\n\r\n${fromLatin1Hex(body.replace(/=\r?\n/g, ''))}`;
}

/**
 * A real SMTP server in the test process on a free port: every message is kept as
 * it arrived; recipients matching `reject` are refused with 550.
 */
export async function startSmtp(options: { reject?: RegExp } = {}) {
  const delivered: Delivered[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.reject?.test(address.address)) {
        const err = Object.assign(new Error(`mailbox ${address.address} unavailable`), { responseCode: 550 });
        callback(err);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('latin1'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The product's Mailer sending to the test SMTP server on `port` (plain, no TLS). */
export function mailerFor(port: number): Mailer {
  return new Mailer(
    nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }),
    'rodmenys@example.lt',
    'https://rodmenys.example.lt',
  );
}
