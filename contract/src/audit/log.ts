import { type Static, Type } from '@sinclair/typebox';
import { DayParam, Nullable, PageQuery, Timestamp } from '../common.js';
import { defineEndpoint, Paged } from '../endpoint.js';

export const AuditEntry = Type.Object({
  Id: Type.Integer(),
  At: Timestamp,
  /** Null for changes made by the system (seeding, migrations). */
  ActorId: Nullable(Type.Integer()),
  ActorUsername: Nullable(Type.String()),
  Kind: Type.String(),
  Entity: Type.String(),
  EntityId: Nullable(Type.String()),
  /** The record's own name when the entry was written: user name, serial number and address, address, code and name. */
  EntityName: Nullable(Type.String()),
  Before: Type.Unknown(),
  After: Type.Unknown(),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object({
  /** User name prefix of who made the change (case-insensitive). */
  actor: Type.Optional(Type.String({ maxLength: 100 })),
  /** One kind, or several separated by commas. */
  kind: Type.Optional(Type.String({ maxLength: 1000, pattern: '^[A-Za-z.]+(,[A-Za-z.]+)*$' })),
  dateFrom: Type.Optional(DayParam),
  dateTill: Type.Optional(DayParam),
  ...PageQuery,
});
export type AuditQuery = Static<typeof AuditQuery>;

export const getAuditLog = defineEndpoint({
  method: 'GET',
  path: '/audit',
  summary: 'The audit log, newest first, filtered by who, kind and period (provider-zone days). Group 1 only.',
  tags: ['audit'],
  auth: 'operator',
  standbyMayAnswer: true,
  querystring: AuditQuery,
  response: Paged(AuditEntry),
});

export const exportAuditLog = defineEndpoint({
  method: 'GET',
  path: '/audit/export',
  summary: 'The filtered audit log as auditLog.xlsx or auditLog.csv (headers in `lang`). Group 1 only.',
  tags: ['audit'],
  auth: 'operator',
  standbyMayAnswer: true,
  querystring: Type.Object({
    actor: AuditQuery.properties.actor,
    kind: AuditQuery.properties.kind,
    dateFrom: AuditQuery.properties.dateFrom,
    dateTill: AuditQuery.properties.dateTill,
    format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])),
    lang: Type.Optional(Type.Union([Type.Literal('lt'), Type.Literal('en')])),
  }),
  response: Type.String(),
  produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
});
