import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, IdList, MonthParam, Nullable, Ok, Timestamp } from './common.js';
import { defineEndpoint } from './endpoint.js';

/**
 * Where a month-end value comes from, in order of preference (docs/data-quality.md):
 * a reading close enough to the month end, the meter's own memory, interpolation
 * between readings, an estimate; or an operator's value; or the occupant's declaration
 * (docs/declared-readings.md).
 */
export const MONTH_END_SOURCES = ['measured', 'memory', 'interpolated', 'estimated', 'manual', 'declared'] as const;
export const MonthEndSource = Type.Union(MONTH_END_SOURCES.map((s) => Type.Literal(s)));
export type MonthEndSource = (typeof MONTH_END_SOURCES)[number];

export const MonthEndRow = Type.Object({
  DeviceId: Id,
  /** The month, YYYY-MM; its end is the first instant of the next month in the provider's zone. */
  Month: MonthParam,
  MonthEnd: Timestamp,
  Value: Type.Number(),
  Source: MonthEndSource,
  /** measured: the reading used; interpolated: the reading before. */
  ReadingTime: Nullable(Timestamp),
  /** interpolated: the reading after. */
  NextReadingTime: Nullable(Timestamp),
  /** interpolated: time or degree_days; estimated: last_year_trend, building_average(_m2), carried_forward. */
  Method: Nullable(Type.String()),
  /** manual: why, and who set it. */
  Reason: Nullable(Type.String()),
  SetBy: Nullable(Type.String()),
  /** The value and source this one replaced (e.g. an estimate a late reading replaced), and when. */
  PreviousValue: Nullable(Type.Number()),
  PreviousSource: Nullable(MonthEndSource),
  ChangedAt: Nullable(Timestamp),
  ComputedAt: Timestamp,
});
export type MonthEndRow = Static<typeof MonthEndRow>;

/**
 * Why a completed month end in a device's service has no value (docs/data-quality.md):
 * `noReading`, the device has no reading since its installation (nothing to start
 * from); `notComputed`, it has readings but the hourly run has not valued that month
 * yet (or the month is older than the months kept).
 */
export const MONTH_END_MISSING = ['noReading', 'notComputed'] as const;
export type MonthEndMissing = (typeof MONTH_END_MISSING)[number];

/**
 * A row of a device's month-end list: a value as in `MonthEndRow`, or a month end
 * without one (`Source` `missing`, `Value` null, `Missing` the reason).
 */
export const MonthEndListRow = Type.Object({
  ...MonthEndRow.properties,
  Value: Nullable(Type.Number()),
  Source: Type.Union([...MONTH_END_SOURCES.map((s) => Type.Literal(s)), Type.Literal('missing')]),
  ComputedAt: Nullable(Timestamp),
  Missing: Nullable(Type.Union(MONTH_END_MISSING.map((s) => Type.Literal(s)))),
});
export type MonthEndListRow = Static<typeof MonthEndListRow>;

/** A listed month end that has a value. */
export const hasMonthEndValue = (row: MonthEndListRow): row is MonthEndListRow & MonthEndRow =>
  row.Source !== 'missing' && row.Value !== null;

export const getMonthEnds = defineEndpoint({
  method: 'GET',
  path: '/data-quality/month-ends/:deviceId',
  summary:
    "A device's month-end values with their source, from month `from` to `till` (docs/data-quality.md); " +
    'a completed month end in its service without a value is listed as missing, with the reason. ' +
    '404 outside the caller’s scope.',
  tags: ['data-quality'],
  auth: 'user',
  params: Type.Object({ deviceId: Id }),
  querystring: Type.Object({ from: MonthParam, till: MonthParam }),
  response: Type.Array(MonthEndListRow),
});

export const getUnmeasuredMonthEnds = defineEndpoint({
  method: 'GET',
  path: '/data-quality/month-ends',
  summary:
    'The month-end values of one month whose source is not measured, for the devices of a type in a selection ' +
    '(subtrees `locationParentId`, else the whole scope; `userId` as in GetDevicesData): where a readings period ' +
    'starts or ends at that month end, the readings screen marks the start or end reading (docs/data-quality.md).',
  tags: ['data-quality'],
  auth: 'user',
  querystring: Type.Object({
    month: MonthParam,
    deviceTypeId: Type.Integer({ minimum: 1, maximum: 32767 }),
    locationParentId: Type.Optional(IdList),
    userId: Type.Optional(Id),
  }),
  response: Type.Array(MonthEndRow),
});

export const SetMonthEndBody = Type.Object({
  value: Type.Number({ minimum: -1e12, maximum: 1e12 }),
  reason: Type.String({ minLength: 1, maxLength: 500 }),
});
export type SetMonthEndBody = Static<typeof SetMonthEndBody>;

export const setMonthEnd = defineEndpoint({
  method: 'PUT',
  path: '/data-quality/month-ends/:deviceId/:month',
  summary: 'Sets a month-end value by hand, with a reason (source manual; audited). Raw readings are not changed.',
  tags: ['data-quality'],
  auth: 'operator',
  params: Type.Object({ deviceId: Id, month: MonthParam }),
  body: SetMonthEndBody,
  response: MonthEndRow,
});

export const clearMonthEnd = defineEndpoint({
  method: 'DELETE',
  path: '/data-quality/month-ends/:deviceId/:month',
  summary: 'Removes a manual month-end value (audited); the value is computed again from the readings.',
  tags: ['data-quality'],
  auth: 'operator',
  params: Type.Object({ deviceId: Id, month: MonthParam }),
  response: Ok,
});

/** Rule codes: stable, used in filters, exports and links. */
export const RULE_CODES = [
  'SILENT',
  'NEGATIVE',
  'COUNTER_RESET',
  'WRONG_READING',
  'SPIKE',
  'ZERO_CONSUMPTION',
  'HIGH_CONSUMPTION',
  'LOW_CONSUMPTION',
  'METER_STATUS',
  'SENTINEL',
  'BUILDING_BALANCE',
  'ESTIMATED_SHARE',
  'COLLECTOR_SILENT',
  'LNS_SILENT',
  'METER_UNDECODED',
  'SUSPECT_VALUE',
  'WRONG_KEY',
  'DEVICE_OVERDUE',
  'DECLARED_DOUBTFUL',
  'HEAT_UNBALANCED',
] as const;
export type RuleCode = (typeof RULE_CODES)[number];
export const RuleCode = Type.Union(RULE_CODES.map((c) => Type.Literal(c)));

/** Each rule's name in Lithuanian and English (the web page, exports and the e-mail digest). */
export const RULE_NAMES: Record<RuleCode, { lt: string; en: string }> = {
  SILENT: { lt: 'Nėra rodmenų', en: 'Silent' },
  NEGATIVE: { lt: 'Neigiamas suvartojimas', en: 'Negative consumption' },
  COUNTER_RESET: { lt: 'Skaitiklio nunulinimas', en: 'Counter reset' },
  WRONG_READING: { lt: 'Klaidingas rodmuo', en: 'Wrong reading' },
  SPIKE: { lt: 'Šuolis', en: 'Spike' },
  ZERO_CONSUMPTION: { lt: 'Nulinis suvartojimas', en: 'Zero consumption' },
  HIGH_CONSUMPTION: { lt: 'Didelis suvartojimas', en: 'High consumption' },
  LOW_CONSUMPTION: { lt: 'Mažas suvartojimas', en: 'Low consumption' },
  METER_STATUS: { lt: 'Skaitiklio būsena', en: 'Meter status' },
  SENTINEL: { lt: 'Reikšmė „nėra duomenų“', en: 'Sentinel value' },
  BUILDING_BALANCE: { lt: 'Pastato balansas', en: 'Building balance' },
  ESTIMATED_SHARE: { lt: 'Per daug įvertintų reikšmių', en: 'Too many estimated values' },
  COLLECTOR_SILENT: { lt: 'Kolektorius nutilo', en: 'Collector silent' },
  LNS_SILENT: { lt: 'LoRaWAN jungtis nutilo', en: 'LoRaWAN connection silent' },
  METER_UNDECODED: { lt: 'Girdimas, bet neiššifruojamas', en: 'Heard but not decoded' },
  SUSPECT_VALUE: { lt: 'Neįtikima reikšmė sulaikyta', en: 'Implausible value held back' },
  WRONG_KEY: { lt: 'Galbūt neteisingas raktas', en: 'Possibly a wrong key' },
  DEVICE_OVERDUE: { lt: 'Pasibaigė patikros ar baterijos terminas', en: 'Verification or battery overdue' },
  DECLARED_DOUBTFUL: { lt: 'Abejotinas deklaruotas rodmuo', en: 'Doubtful declared reading' },
  HEAT_UNBALANCED: { lt: 'Šilumos balansas nesueina', en: 'Heat split does not balance' },
};

export const ANOMALY_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type AnomalyState = (typeof ANOMALY_STATES)[number];
export const AnomalyState = Type.Union(ANOMALY_STATES.map((s) => Type.Literal(s)));

export const Anomaly = Type.Object({
  Id: Id,
  Rule: RuleCode,
  State: AnomalyState,
  /** The building (and the device, absent for building-wide rules). */
  BuildingId: Id,
  Address: Type.String(),
  DeviceId: Nullable(Id),
  DeviceCode: Nullable(Type.String()),
  DeviceTypeId: Nullable(Type.Integer()),
  Flat: Nullable(Type.String()),
  /** The month a monthly rule is about (YYYY-MM), else null. */
  Month: Nullable(MonthParam),
  /** What the rule fired on: readings, values, thresholds. */
  Evidence: Type.Record(Type.String(), Type.Unknown()),
  OpenedAt: Timestamp,
  LastSeenAt: Timestamp,
  ResolvedAt: Nullable(Timestamp),
  AcknowledgedAt: Nullable(Timestamp),
  AcknowledgedBy: Nullable(Type.String()),
  Comment: Nullable(Type.String()),
});
export type Anomaly = Static<typeof Anomaly>;

const AnomalyFilter = {
  rule: Type.Optional(RuleCode),
  state: Type.Optional(AnomalyState),
  deviceTypeId: Type.Optional(Type.Integer({ minimum: 1, maximum: 32767 })),
  buildingId: Type.Optional(Id),
  deviceId: Type.Optional(Id),
  /** Anomalies open at some point between these days (provider zone). */
  dateFrom: Type.Optional(Day),
  dateTill: Type.Optional(Day),
};

export const listAnomalies = defineEndpoint({
  method: 'GET',
  path: '/data-quality/anomalies',
  summary: 'Anomalies in the caller’s scope, newest first, at most 5,000 (docs/data-quality.md).',
  tags: ['data-quality'],
  auth: 'user',
  standbyMayAnswer: true,
  querystring: Type.Object(AnomalyFilter),
  response: Type.Array(Anomaly),
});

export const AnomalyCount = Type.Object({
  BuildingId: Id,
  Address: Type.String(),
  Rule: RuleCode,
  Open: Type.Integer(),
  Acknowledged: Type.Integer(),
  Resolved: Type.Integer(),
});
export type AnomalyCount = Static<typeof AnomalyCount>;

export const countAnomalies = defineEndpoint({
  method: 'GET',
  path: '/data-quality/anomalies/counts',
  summary: 'Anomaly counts per building and rule in the caller’s scope, with the same filters as the list.',
  tags: ['data-quality'],
  auth: 'user',
  standbyMayAnswer: true,
  querystring: Type.Object(AnomalyFilter),
  response: Type.Array(AnomalyCount),
});

export const acknowledgeAnomaly = defineEndpoint({
  method: 'POST',
  path: '/data-quality/anomalies/:id/acknowledge',
  summary: 'Acknowledges an open anomaly with a comment (audited). 404 outside the caller’s scope.',
  tags: ['data-quality'],
  auth: 'user',
  params: Type.Object({ id: Id }),
  body: Type.Object({ comment: Type.String({ minLength: 1, maxLength: 1000 }) }),
  response: Anomaly,
});

export const resolveAnomaly = defineEndpoint({
  method: 'POST',
  path: '/data-quality/anomalies/:id/resolve',
  summary:
    'Resolves an anomaly by hand with a comment (audited); it opens again if the rule still fires at its next run.',
  tags: ['data-quality'],
  auth: 'user',
  params: Type.Object({ id: Id }),
  body: Type.Object({ comment: Type.String({ minLength: 1, maxLength: 1000 }) }),
  response: Anomaly,
});

export const DqSetting = Type.Object({
  Key: Type.String(),
  Value: Type.Unknown(),
  UpdatedAt: Timestamp,
});
export type DqSetting = Static<typeof DqSetting>;

export const listDqSettings = defineEndpoint({
  method: 'GET',
  path: '/data-quality/settings',
  summary: 'The parameters of month-end values, rules and schedules (docs/data-quality.md).',
  tags: ['data-quality'],
  auth: 'operator',
  response: Type.Array(DqSetting),
});

export const updateDqSetting = defineEndpoint({
  method: 'PUT',
  path: '/data-quality/settings/:key',
  summary: 'Changes one parameter (audited).',
  tags: ['data-quality'],
  auth: 'operator',
  params: Type.Object({ key: Type.String({ maxLength: 100 }) }),
  body: Type.Object({ value: Type.Unknown() }),
  response: DqSetting,
});

export const Job = Type.Object({
  Name: Type.String(),
  NextRunAt: Timestamp,
  Running: Type.Boolean(),
  LastStartedAt: Nullable(Timestamp),
  LastFinishedAt: Nullable(Timestamp),
  LastDurationMs: Nullable(Type.Integer()),
  LastError: Nullable(Type.String()),
  /** What the last run did, as counts by name (devices, monthEnds, found, opened, resolved, sent…). */
  LastResult: Nullable(Type.Record(Type.String(), Type.Number())),
  Runs: Type.Integer(),
  Failures: Type.Integer(),
});
export type Job = Static<typeof Job>;

export const listJobs = defineEndpoint({
  method: 'GET',
  path: '/data-quality/jobs',
  summary: 'The scheduled work: next run, last run, its duration and error (docs/data-quality.md).',
  tags: ['data-quality'],
  auth: 'operator',
  response: Type.Array(Job),
});

export const runJob = defineEndpoint({
  method: 'POST',
  path: '/data-quality/jobs/:name/run',
  summary:
    'Runs a scheduled job now (docs/data-quality.md, "Scheduled work"): it becomes due at once and the ' +
    'scheduler of any instance starts it within seconds; its row shows the run when it ends. Audited. Group 1 only.',
  tags: ['data-quality'],
  auth: 'operator',
  params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }),
  response: Job,
});

const DigestLanguage = Type.Union([Type.Literal('lt'), Type.Literal('en')]);

/** The caller's daily digest subscription. */
export const DigestSubscription = Type.Object({
  OptIn: Type.Boolean(),
  Language: DigestLanguage,
  Email: Nullable(Type.String()),
  /** False when the server has no SMTP_URL: no digest is sent to anyone. */
  MailConfigured: Type.Boolean(),
  LastSentAt: Nullable(Timestamp),
});
export type DigestSubscription = Static<typeof DigestSubscription>;

export const getDigestSubscription = defineEndpoint({
  method: 'GET',
  path: '/data-quality/digest',
  summary: "The caller's daily anomaly digest subscription, and whether the server can send mail.",
  tags: ['data-quality'],
  auth: 'user',
  response: DigestSubscription,
});

export const updateDigestSubscription = defineEndpoint({
  method: 'PUT',
  path: '/data-quality/digest',
  summary: 'Opts the caller in or out of the daily anomaly digest by e-mail, in the given language.',
  tags: ['data-quality'],
  auth: 'user',
  body: Type.Object({ optIn: Type.Boolean(), language: DigestLanguage }),
  response: DigestSubscription,
});
