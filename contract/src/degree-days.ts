import { type Static, Type } from '@sinclair/typebox';
import { Id, MonthParam, Nullable } from './common.js';
import { defineEndpoint } from './endpoint.js';

/**
 * Heating degree-days per city and month (docs/data-quality.md, "Degree-days"):
 * allocator interpolation spreads a month's value over its days, and the monthly
 * statements correct last year's heating by them. Group 1 keeps them: by hand or
 * from a CSV file of `city;month;value` lines.
 */
export const DegreeDayCity = Type.Object({
  Id,
  Name: Type.String(),
  /** The municipality (or region) the city belongs to: two cities may share a name. */
  Region: Nullable(Type.String()),
});
export type DegreeDayCity = Static<typeof DegreeDayCity>;

export const DegreeDayValue = Type.Object({
  CityId: Id,
  Month: MonthParam,
  Value: Type.Number({ minimum: 0 }),
});
export type DegreeDayValue = Static<typeof DegreeDayValue>;

export const DegreeDays = Type.Object({
  /** Every city of the master data, with or without values. */
  Cities: Type.Array(DegreeDayCity),
  /** The values of the year asked for. */
  Values: Type.Array(DegreeDayValue),
});
export type DegreeDays = Static<typeof DegreeDays>;

/** The largest monthly value accepted: a month has at most 31 days of at most 60 K. */
export const MAX_MONTHLY_DEGREE_DAYS = 2000;
/** Lines a degree-days file may have: 12 months of a hundred cities over eight years (and within the body limit). */
export const MAX_DEGREE_DAY_LINES = 10_000;

export const listDegreeDays = defineEndpoint({
  method: 'GET',
  path: '/data-quality/degree-days',
  summary: 'Heating degree-days of one year, per city and month, and the cities they may be given for. Group 1 only.',
  tags: ['data-quality'],
  auth: 'operator',
  querystring: Type.Object({ year: Type.Integer({ minimum: 1990, maximum: 2200 }) }),
  response: DegreeDays,
});

export const setDegreeDays = defineEndpoint({
  method: 'PUT',
  path: '/data-quality/degree-days/:cityId/:month',
  summary:
    "Sets one city's degree-days for one month, or removes them with null (audited). Allocator month ends of that city are computed again.",
  tags: ['data-quality'],
  auth: 'operator',
  params: Type.Object({ cityId: Id, month: MonthParam }),
  body: Type.Object({ value: Nullable(Type.Number({ minimum: 0, maximum: MAX_MONTHLY_DEGREE_DAYS })) }),
  response: Type.Object({ CityId: Id, Month: MonthParam, Value: Nullable(Type.Number()) }),
});

/** What a degree-days file did: every line is checked first; one bad line and nothing is stored. */
export const DegreeDaysImportResult = Type.Object({
  Lines: Type.Integer({ minimum: 0 }),
  Created: Type.Integer({ minimum: 0 }),
  Updated: Type.Integer({ minimum: 0 }),
  Unchanged: Type.Integer({ minimum: 0 }),
});
export type DegreeDaysImportResult = Static<typeof DegreeDaysImportResult>;

export const importDegreeDays = defineEndpoint({
  method: 'POST',
  path: '/data-quality/degree-days/csv',
  summary:
    'Imports degree-days from CSV lines `city;month;value` (city by name or id, month YYYY-MM, value ≥ 0; an optional header). All or nothing: a 400 lists the wrong lines. Audited.',
  tags: ['data-quality'],
  auth: 'operator',
  consumes: ['text/csv', 'text/plain'],
  body: Type.String({ description: 'CSV text: city;month;value per line' }),
  response: DegreeDaysImportResult,
});
