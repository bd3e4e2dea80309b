import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, IdParams, MonthParam, Nullable, Ok, Timestamp } from './common.js';
import { defineEndpoint } from './endpoint.js';
import type { Language } from './limits.js';
import { CONSENT_CHANNELS, OCCUPANT_LANGUAGES } from './occupancies.js';
import { OccupancyStatement, StatementKind, StatementLanguage } from './statements/figures.js';

/*
 * The occupant's own access (docs/occupant-access.md): no account, a secret per occupancy (a link
 * for e-mail, a letter code for post) exchanged for an occupant session, which reaches only the
 * endpoints below marked `auth: 'occupant'`, and only its occupancy's published months.
 */

/** An occupant session's bearer value starts with this; the server tells it from sign-in tokens and keys by it. */
export const OCCUPANT_SESSION_PREFIX = 'rmo_';

/**
 * The letter code's alphabet (Crockford's base 32: no I, L, O, U). Typed codes are read
 * case-insensitively, with spaces and hyphens ignored, O read as 0 and I or L as 1.
 */
export const LETTER_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters of a letter code: 32^10 = 2^50 codes (docs/security.md, "The occupant's code page"). */
export const LETTER_CODE_LENGTH = 10;

/** Where a link opens the occupant's pages: `${PUBLIC_URL}${OCCUPANT_LINK_PATH}#<token>` (the token never reaches a log). */
export const OCCUPANT_LINK_PATH = '/occupant/open';
/** The occupant's code page (flat number and letter code), printed on the letter. */
export const OCCUPANT_CODE_PATH = '/occupant';

/** The code page under the product's public address, opening in `language` (printed on the letter). */
export const occupantCodeUrl = (publicUrl: string, language: Language): string =>
  `${publicUrl.replace(/\/+$/, '')}${OCCUPANT_CODE_PATH}?lang=${language}`;

/** The link of an occupancy's token under the product's public address (PUBLIC_URL). */
export const occupantLinkUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, '')}${OCCUPANT_LINK_PATH}#${token}`;

/** A letter code as printed: two groups of five (ABCDE-FGHJK). */
export const formatLetterCode = (code: string): string =>
  code.length === LETTER_CODE_LENGTH ? `${code.slice(0, 5)}-${code.slice(5)}` : code;

/** An occupant session: the bearer value for the `occupant` endpoints and when it ends at the latest. */
export const OccupantSession = Type.Object({
  Token: Type.String({ description: `Starts with ${OCCUPANT_SESSION_PREFIX}` }),
  ExpiresAt: Timestamp,
  /** The occupancy's language, for the first page (null: the browser's). */
  Language: Nullable(Type.Union(OCCUPANT_LANGUAGES.map((l) => Type.Literal(l)))),
});
export type OccupantSession = Static<typeof OccupantSession>;

export const signInOccupantByLink = defineEndpoint({
  method: 'POST',
  path: '/occupant/sessions/link',
  summary:
    "Exchanges a link's token for an occupant session (docs/occupant-access.md). An unknown, revoked or expired " +
    'token: 401, the same answer for each.',
  tags: ['occupant'],
  auth: 'none',
  body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
  response: OccupantSession,
  status: 201,
});

export const signInOccupantByCode = defineEndpoint({
  method: 'POST',
  path: '/occupant/sessions/code',
  summary:
    "Exchanges a flat's number and a letter code for an occupant session (docs/occupant-access.md). A wrong code " +
    'and a flat that does not exist answer the same 401; after too many failures (per flat, per address, overall) ' +
    '429 with Retry-After (docs/security.md).',
  tags: ['occupant'],
  auth: 'none',
  body: Type.Object({
    /** The flat's number as printed on the letter (the flat's id in Rodmenys). */
    flat: Id,
    code: Type.String({ minLength: 1, maxLength: 40 }),
  }),
  response: OccupantSession,
  status: 201,
});

export const signOutOccupant = defineEndpoint({
  method: 'DELETE',
  path: '/occupant/session',
  summary: 'Ends the occupant session it is called with.',
  tags: ['occupant'],
  auth: 'occupant',
  response: Ok,
});

/** What the occupant is shown about their occupancy: no device, no other occupant. */
export const OccupantProfile = Type.Object({
  OccupancyId: Id,
  Name: Type.String(),
  ClientCode: Type.String(),
  /** The flat's address: city, street, building, flat. */
  City: Type.String(),
  Street: Type.String(),
  Building: Type.String(),
  Flat: Type.String(),
  Language: Nullable(Type.Union(OCCUPANT_LANGUAGES.map((l) => Type.Literal(l)))),
  MoveIn: Nullable(Day),
  MoveOut: Nullable(Day),
  /** The last day the secrets open the pages: move-out plus the grace period (null: still living there). */
  AccessUntil: Nullable(Day),
  Email: Nullable(Type.String()),
  /** Consent to electronic delivery (notices by e-mail instead of a letter). */
  Electronic: Type.Boolean(),
  ConsentAt: Nullable(Day),
  ConsentChannel: Nullable(Type.Union(CONSENT_CHANNELS.map((c) => Type.Literal(c)))),
});
export type OccupantProfile = Static<typeof OccupantProfile>;

export const getOccupantProfile = defineEndpoint({
  method: 'GET',
  path: '/occupant/profile',
  summary: "The occupant's occupancy: name, account, address, days, consent to electronic delivery.",
  tags: ['occupant'],
  auth: 'occupant',
  response: OccupantProfile,
});

export const updateOccupantConsent = defineEndpoint({
  method: 'PUT',
  path: '/occupant/consent',
  summary:
    'Switches electronic delivery on (consent today, channel portal) or off (no consent: letters by post). Audited.',
  tags: ['occupant'],
  auth: 'occupant',
  body: Type.Object({ electronic: Type.Boolean() }),
  response: OccupantProfile,
});

/** One month the occupant may open: published, and the occupancy lived there on a day of it. */
export const OccupantMonth = Type.Object({ Month: MonthParam, PublishedAt: Timestamp });
export type OccupantMonth = Static<typeof OccupantMonth>;

export const listOccupantMonths = defineEndpoint({
  method: 'GET',
  path: '/occupant/months',
  summary: "The occupancy's months with a published statement, newest first (docs/occupant-access.md).",
  tags: ['occupant'],
  auth: 'occupant',
  response: Type.Array(OccupantMonth),
});

/** The occupant's statement of a month, plus their own earlier months for a chart (never another occupant's). */
export const OccupantStatement = Type.Object({
  Month: MonthParam,
  PublishedAt: Timestamp,
  Statement: OccupancyStatement,
  /** The occupancy's published months up to this one, oldest first: its consumption per kind. */
  History: Type.Array(
    Type.Object({
      Month: MonthParam,
      Kinds: Type.Array(
        Type.Object({
          Kind: StatementKind,
          Value: Nullable(Type.Number()),
        }),
      ),
    }),
  ),
});
export type OccupantStatement = Static<typeof OccupantStatement>;

const OccupantMonthParams = Type.Object({ month: MonthParam });

export const getOccupantStatement = defineEndpoint({
  method: 'GET',
  path: '/occupant/months/:month',
  summary: "One month's statement of the occupancy. A month that is not one of listOccupantMonths': 404.",
  tags: ['occupant'],
  auth: 'occupant',
  params: OccupantMonthParams,
  response: OccupantStatement,
});

export const getOccupantStatementPdf = defineEndpoint({
  method: 'GET',
  path: '/occupant/months/:month/pdf',
  summary: "One month's statement of the occupancy as a PDF, in `lang` (default: the occupancy's language).",
  tags: ['occupant'],
  auth: 'occupant',
  params: OccupantMonthParams,
  querystring: Type.Object({ lang: Type.Optional(StatementLanguage) }),
  response: Type.String(),
  produces: 'application/pdf',
});

/** The state of an occupancy's secrets, for the back office (never a secret itself). */
export const OccupantAccess = Type.Object({
  OccupancyId: Id,
  /** Links that open the pages now (each notice e-mail carries a new one). */
  ActiveLinks: Type.Integer({ minimum: 0 }),
  LastLinkIssuedAt: Nullable(Timestamp),
  /** The active letter code's issue time (null: none). */
  LetterCodeIssuedAt: Nullable(Timestamp),
  /** The last day the secrets open the pages (null: still living there). */
  AccessUntil: Nullable(Day),
  /** The occupancy's last sign-in (link or code). */
  LastSignInAt: Nullable(Timestamp),
});
export type OccupantAccess = Static<typeof OccupantAccess>;

export const getOccupantAccess = defineEndpoint({
  method: 'GET',
  path: '/occupancies/:id/access',
  summary: "The state of an occupancy's secrets. Groups 1 and 2 (group 2 within its scope); 404 outside it.",
  tags: ['occupancies'],
  auth: 'user',
  params: IdParams,
  response: OccupantAccess,
});

export const revokeOccupantAccess = defineEndpoint({
  method: 'POST',
  path: '/occupancies/:id/access/revoke',
  summary:
    'Revokes every link and the letter code of an occupancy, and ends its sessions at once (audited). Groups 1 and 2 (group 2 within its scope).',
  tags: ['occupancies'],
  auth: 'user',
  params: IdParams,
  response: OccupantAccess,
});

/** New secrets, shown once: the database keeps only their hashes. */
export const ReissuedOccupantAccess = Type.Object({
  Access: OccupantAccess,
  /** The new link: under PUBLIC_URL, else this request's own address. */
  Link: Type.String(),
  Token: Type.String(),
  /** The new letter code, as printed (ABCDE-FGHJK). */
  LetterCode: Type.String(),
});
export type ReissuedOccupantAccess = Static<typeof ReissuedOccupantAccess>;

export const reissueOccupantAccess = defineEndpoint({
  method: 'POST',
  path: '/occupancies/:id/access/reissue',
  summary:
    'Revokes the secrets of an occupancy and issues a new link and letter code, shown once (audited). ' +
    'Groups 1 and 2 (group 2 within its scope).',
  tags: ['occupancies'],
  auth: 'user',
  params: IdParams,
  response: ReissuedOccupantAccess,
  status: 201,
});
