import { type Static, Type } from '@sinclair/typebox';
import { Id, IdList, MonthParam, Nullable, Timestamp } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { HeatSeason } from '../heat-methods.js';
import { StatementKind, StatementLanguage } from './figures.js';

/**
 * Publication of a building's month (docs/statements.md): what a republish compares, the
 * publication itself, the difference with the live figures, the e-mails it sends and who gets them.
 */

/** The parts of a flat's heat by its building's method a republish compares one by one (Space is `Current`). */
export const HEAT_CHANGE_PARTS = [
  'HotWater',
  'Circulation',
  'Common',
  'NoDevice',
  'HeatMeter',
  'Base',
  'Consumption',
  'Assigned',
  'Total',
] as const;

/** A change between the published figures and the live ones. */
export const StatementChange = Type.Object({
  FlatId: Id,
  BuildingId: Id,
  Address: Type.String(),
  Kind: StatementKind,
  Field: Type.Union([Type.Literal('Current'), Type.Literal('Previous'), Type.Literal('LastYear')]),
  /**
   * A part of the flat's heat of the month by its building's method (docs/heat-method.md), Field `Current`;
   * absent for the figure itself.
   */
  Part: Type.Optional(Type.Union(HEAT_CHANGE_PARTS.map((x) => Type.Literal(x)))),
  Published: Nullable(Type.Number()),
  Live: Nullable(Type.Number()),
  /**
   * A figure of one occupant's part of the flat's month (docs/occupancies.md): the occupancy, its account
   * and its days of the month; absent for a figure of the whole flat.
   */
  Occupancy: Type.Optional(
    Type.Object({ OccupancyId: Id, ClientCode: Type.String(), From: Type.String(), Till: Type.String() }),
  ),
});
export type StatementChange = Static<typeof StatementChange>;

/** A heat method version's building parameters, compared once per building on a republish. */
export const HEAT_BUILDING_PARAMETERS = [
  'KwhPerM3',
  'CirculationNorm',
  'HotWaterTemperature',
  'DistrictHeat',
  'Seasons',
  'CommonShare',
  'BaseShare',
  'MinimumShare',
] as const;
/** A flat's own parameters, compared per flat. */
export const HEAT_FLAT_PARAMETERS = ['PositionFactor', 'CirculationClass'] as const;
/** The parameters of a building's heat method a republish compares (docs/heat-method.md, "Publication"). */
export const HEAT_PARAMETERS = ['Method', 'ValidFrom', ...HEAT_BUILDING_PARAMETERS, ...HEAT_FLAT_PARAMETERS] as const;
export type HeatParameterName = (typeof HEAT_PARAMETERS)[number];

/** A parameter's value: a number, the hot-water mode or month (text), district heat, or the season's periods. */
export const HeatParameterValue = Nullable(
  Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Array(HeatSeason)]),
);
export type HeatParameterValue = Static<typeof HeatParameterValue>;

/**
 * A parameter of the heat method behind a building's month that differs between the published figures
 * and the live ones: the building's (`FlatId` null) or a flat's own (position factor, circulation class).
 * `Method` null is the plain rule.
 */
export const HeatParameterChange = Type.Object({
  BuildingId: Id,
  FlatId: Nullable(Id),
  /** The building's address, or the flat's for a flat's own parameter. */
  Address: Type.String(),
  Parameter: Type.Union(HEAT_PARAMETERS.map((x) => Type.Literal(x))),
  Published: HeatParameterValue,
  Live: HeatParameterValue,
});
export type HeatParameterChange = Static<typeof HeatParameterChange>;

export const PublicationBody = Type.Object({
  month: MonthParam,
  /** Subtrees whose buildings to publish; absent = every building. */
  locationIds: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  /**
   * A building already published whose figures have not changed gets no new version and no
   * e-mail, unless this is true (a new version asked for explicitly).
   */
  force: Type.Optional(Type.Boolean()),
});

export const publishStatements = defineEndpoint({
  method: 'POST',
  path: '/statements/publications',
  summary:
    'Publishes (freezes) month `month` of the buildings in the subtrees: a building already published gets a new ' +
    'version when a figure changed (or `force`), and the answer lists what changed; an unchanged one is left as it ' +
    'is (`Unchanged`). Audited; opted-in users of the buildings published are notified by e-mail. 400 for a month ' +
    'that has not ended. Group 1 only.',
  tags: ['statements'],
  auth: 'operator',
  body: PublicationBody,
  response: Type.Object({
    Buildings: Type.Integer(),
    Flats: Type.Integer(),
    Republished: Type.Integer(),
    /** Buildings already published with the same figures: no new version, no e-mail. */
    Unchanged: Type.Integer(),
    Changes: Type.Array(StatementChange),
    /** The heat method's parameters that changed since the previous version (docs/heat-method.md). */
    ParameterChanges: Type.Array(HeatParameterChange),
  }),
});

export const getStatementDifference = defineEndpoint({
  method: 'GET',
  path: '/statements/difference',
  summary: 'What would change if the selection were published again now: published against live figures.',
  tags: ['statements'],
  auth: 'operator',
  querystring: Type.Object({ month: MonthParam, locationParentId: Type.Optional(IdList) }),
  response: Type.Object({
    Published: Type.Integer(),
    Changes: Type.Array(StatementChange),
    /** The heat method's parameters behind the published figures that differ now (docs/heat-method.md). */
    ParameterChanges: Type.Array(HeatParameterChange),
  }),
});

export const StatementDelivery = Type.Object({
  Id: Id,
  Month: MonthParam,
  UserName: Type.String(),
  Email: Type.String(),
  SentAt: Timestamp,
  /** Accepted by the SMTP server; else `Error` says why. */
  Accepted: Type.Boolean(),
  Error: Nullable(Type.String()),
});
export type StatementDelivery = Static<typeof StatementDelivery>;

export const listStatementDeliveries = defineEndpoint({
  method: 'GET',
  path: '/statements/deliveries',
  summary: "The publication e-mails: to whom, when, and the SMTP server's answer (newest first). Group 1 only.",
  tags: ['statements'],
  auth: 'operator',
  querystring: Type.Object({ month: Type.Optional(MonthParam) }),
  response: Type.Object({ MailConfigured: Type.Boolean(), Deliveries: Type.Array(StatementDelivery) }),
});

export const StatementNotification = Type.Object({
  OptIn: Type.Boolean(),
  Language: StatementLanguage,
  Email: Nullable(Type.String()),
  MailConfigured: Type.Boolean(),
});
export type StatementNotification = Static<typeof StatementNotification>;

export const getStatementNotification = defineEndpoint({
  method: 'GET',
  path: '/statements/notification',
  summary: "Whether the caller is told by e-mail when a month's statements are published.",
  tags: ['statements'],
  auth: 'user',
  response: StatementNotification,
});

export const updateStatementNotification = defineEndpoint({
  method: 'PUT',
  path: '/statements/notification',
  summary: 'Opts the caller in or out of the e-mail sent when statements of their flats are published.',
  tags: ['statements'],
  auth: 'user',
  body: Type.Object({ optIn: Type.Boolean(), language: StatementLanguage }),
  response: StatementNotification,
});
