import { type Static, Type } from '@sinclair/typebox';
import { AuditEntry } from './audit/log.js';
import { Day, IdParams, MonthParam, Nullable, Timestamp } from './common.js';
import { DeclarationChannelSchema, DeclarationStatusSchema } from './declarations.js';
import { defineEndpoint } from './endpoint.js';
import { MoveValueRow, OccupancyRow } from './occupancies.js';
import { OccupancyKindFigures } from './statements/figures.js';

/**
 * What stands where an occupant's name was once their personal data is removed (docs/personal-data.md):
 * neutral, in no language, never anyone's name (the name column may not be blank).
 */
export const ANONYMISED = '***';

/**
 * Everything kept about one occupant (an access request, docs/personal-data.md): their occupancies
 * (the one asked for and the others of the same account under the same name) with contacts and
 * consent, the account, the devices' values on their moving days, their statements' figures per
 * month, their declared readings with the photos, and the audit entries about those occupancies and
 * the account.
 */
export const OccupantData = Type.Object({
  ExportedAt: Timestamp,
  Occupancies: Type.Array(
    Type.Object({
      ...OccupancyRow.properties,
      /** The flat's address as one line. */
      Flat: Type.String(),
      /** When the personal data was removed after the retention time (null: kept). */
      AnonymisedAt: Nullable(Timestamp),
    }),
  ),
  Account: Type.Object({ ClientCode: Type.String(), ClientName: Type.String() }),
  /** Each moving day at the start or end of one of the occupancies, with the flat's devices' values there. */
  Moves: Type.Array(Type.Object({ OccupancyId: Type.Integer(), Day, Values: Type.Array(MoveValueRow) })),
  /** Per occupancy and ended month: the occupant's days of the month and figures, as their statement shows them. */
  Statements: Type.Array(
    Type.Object({
      OccupancyId: Type.Integer(),
      Month: MonthParam,
      From: Day,
      Till: Day,
      Days: Type.Integer(),
      Kinds: Type.Array(OccupancyKindFigures),
    }),
  ),
  /**
   * The occupant's own access (docs/occupant-access.md): each link, letter code and session, when it
   * was issued and when it ended (revoked, signed out or expired); never the secret, which is not kept.
   */
  Access: Type.Array(
    Type.Object({
      OccupancyId: Type.Integer(),
      Kind: Type.Union([Type.Literal('link'), Type.Literal('letterCode'), Type.Literal('session')]),
      IssuedAt: Timestamp,
      EndedAt: Nullable(Timestamp),
    }),
  ),
  /** The delivery log (docs/delivery.md): each month's notice or letter, its address, state and failure. */
  Deliveries: Type.Array(
    Type.Object({
      OccupancyId: Type.Integer(),
      Month: MonthParam,
      Version: Type.Integer(),
      Channel: Type.Union([Type.Literal('email'), Type.Literal('print')]),
      Email: Nullable(Type.String()),
      Status: Type.String(),
      QueuedAt: Timestamp,
      SentAt: Nullable(Timestamp),
      PrintedAt: Nullable(Timestamp),
      Error: Nullable(Type.String()),
    }),
  ),
  /**
   * Their declared readings (docs/declared-readings.md): each declaration of the occupancies, with the
   * device's serial, who entered it (the occupant, or a back-office user for a phone call, with who
   * called), its state and the back office's decision.
   */
  Declarations: Type.Array(
    Type.Object({
      OccupancyId: Type.Integer(),
      Id: Type.Integer(),
      DeviceId: Type.Integer(),
      DeviceCode: Type.String(),
      /** The flat's address as one line. */
      Flat: Type.String(),
      Value: Type.Number(),
      DeclaredAt: Timestamp,
      Month: MonthParam,
      Channel: DeclarationChannelSchema,
      EnteredBy: Nullable(Type.String()),
      CallerName: Nullable(Type.String()),
      CallerPhone: Nullable(Type.String()),
      /** The photo sent with it: one of `DeclarationPhotos`. */
      PhotoId: Nullable(Type.Integer()),
      Status: DeclarationStatusSchema,
      Reason: Nullable(Type.String()),
      DecidedBy: Nullable(Type.String()),
      DecidedAt: Nullable(Timestamp),
      Confirmed: Type.Boolean(),
      PreviousValue: Nullable(Type.Number()),
      PlausibleMax: Nullable(Type.Number()),
      /** It is the declaration that counts for its device and month. */
      Counts: Type.Boolean(),
    }),
  ),
  /** The meters' photos they sent (with a declaration or not), the stored bytes in base64. */
  DeclarationPhotos: Type.Array(
    Type.Object({
      OccupancyId: Type.Integer(),
      Id: Type.Integer(),
      Mime: Type.Union([Type.Literal('image/jpeg'), Type.Literal('image/png')]),
      Width: Type.Integer(),
      Height: Type.Integer(),
      CreatedAt: Timestamp,
      Base64: Type.String(),
    }),
  ),
  /** What they were told about declarations: decisions and reminders, by e-mail or on the print list. */
  DeclarationNotices: Type.Array(
    Type.Object({
      OccupancyId: Type.Integer(),
      Kind: Type.Union([
        Type.Literal('accepted'),
        Type.Literal('rejected'),
        Type.Literal('reminderStart'),
        Type.Literal('reminderEnd'),
      ]),
      DeviceCode: Type.String(),
      Month: MonthParam,
      DeclarationId: Nullable(Type.Integer()),
      Channel: Type.Union([Type.Literal('email'), Type.Literal('print')]),
      Email: Nullable(Type.String()),
      Status: Type.String(),
      QueuedAt: Timestamp,
      SentAt: Nullable(Timestamp),
      Error: Nullable(Type.String()),
    }),
  ),
  /** The audit log's entries about the occupancies and the account, oldest first. */
  AuditEntries: Type.Array(AuditEntry),
});
export type OccupantData = Static<typeof OccupantData>;

export const exportOccupantData = defineEndpoint({
  method: 'GET',
  path: '/occupancies/:id/personal-data',
  summary:
    'An access request: everything kept about the occupant of occupancy `id` (docs/personal-data.md), as a JSON ' +
    'file. Audited (`occupancy.export`). Group 1 only.',
  tags: ['occupancies'],
  auth: 'operator',
  params: IdParams,
  response: OccupantData,
});
