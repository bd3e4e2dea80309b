import { type Static, Type } from '@sinclair/typebox';
import { Id, IdList, MonthParam, Nullable, Timestamp } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { StatementLanguage } from './statements/figures.js';

/**
 * Delivery of a published month to each occupant (docs/delivery.md): a notice with their link
 * by e-mail for an occupant with an address and consent, else a letter on the building's print
 * list. Every delivery is logged per occupancy.
 */

/** How the month reaches the occupant: an e-mail notice with their link, or a printed letter with a code. */
export const DELIVERY_CHANNELS = ['email', 'print'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/**
 * Where a delivery stands: queued (an e-mail not tried yet, or a letter not printed yet), sent
 * (accepted by the SMTP server), failed (the last attempt's reason in `Error`; retried while
 * `GivenUp` is false), printed (its letter was in a downloaded print list).
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'printed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One occupant's delivery of one published version of a month. */
export const OccupantDelivery = Type.Object({
  Id: Id,
  Month: MonthParam,
  Version: Type.Integer({ minimum: 1 }),
  BuildingId: Id,
  FlatId: Id,
  /** The flat's number. */
  Flat: Type.String(),
  OccupancyId: Id,
  Name: Type.String(),
  Channel: Type.Union(DELIVERY_CHANNELS.map((c) => Type.Literal(c))),
  Email: Nullable(Type.String()),
  Language: StatementLanguage,
  Status: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  QueuedAt: Timestamp,
  Attempts: Type.Integer({ minimum: 0 }),
  /** The last failure's reason (the SMTP server's answer or the connection error). */
  Error: Nullable(Type.String()),
  /** When the next attempt is due; null when none is (sent, given up, or a letter). */
  NextAttemptAt: Nullable(Timestamp),
  GivenUp: Type.Boolean(),
  SentAt: Nullable(Timestamp),
  PrintedAt: Nullable(Timestamp),
});
export type OccupantDelivery = Static<typeof OccupantDelivery>;

/** A building's deliveries of the month, with counts per status and how many letters wait for printing. */
export const BuildingDeliveries = Type.Object({
  BuildingId: Id,
  /** The building's address: city, street and number. */
  Address: Type.String(),
  Queued: Type.Integer({ minimum: 0 }),
  Sent: Type.Integer({ minimum: 0 }),
  Failed: Type.Integer({ minimum: 0 }),
  Printed: Type.Integer({ minimum: 0 }),
  /** Letters of the print list, printed already or not: the letters, and the e-mails given up. */
  Letters: Type.Integer({ minimum: 0 }),
  Deliveries: Type.Array(OccupantDelivery),
});
export type BuildingDeliveries = Static<typeof BuildingDeliveries>;

export const listOccupantDeliveries = defineEndpoint({
  method: 'GET',
  path: '/deliveries',
  summary:
    "The occupants' delivery log of month `month`, per building in address order (docs/delivery.md): each " +
    "occupancy's e-mail notice (queued, sent, failed with the reason, retries) or letter (queued, printed), " +
    'the latest version of each. Group 1 sees every building, group 2 those in its scope; group 3 gets 403.',
  tags: ['deliveries'],
  auth: 'user',
  querystring: Type.Object({ month: MonthParam, locationParentId: Type.Optional(IdList) }),
  response: Type.Object({
    Month: MonthParam,
    MailConfigured: Type.Boolean(),
    Buildings: Type.Array(BuildingDeliveries),
  }),
});

export const getPrintList = defineEndpoint({
  method: 'GET',
  path: '/deliveries/print/:buildingId',
  summary:
    "A building's print list of month `month` as one PDF (docs/delivery.md): a letter per occupant without an " +
    'e-mail address or consent, or whose e-mail was given up (address, flat, a new letter code that replaces the ' +
    'earlier one, their statement). ' +
    'Downloading it marks those deliveries printed. 404 when the building has no letter for the month. Group 1 only.',
  tags: ['deliveries'],
  auth: 'operator',
  params: Type.Object({ buildingId: Id }),
  querystring: Type.Object({ month: MonthParam, lang: Type.Optional(StatementLanguage) }),
  response: Type.String(),
  produces: 'application/pdf',
});
