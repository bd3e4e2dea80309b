import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, Nullable, Timestamp } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { StatementLanguage } from './statements/figures.js';

/**
 * Devices over their lifetime (docs/device-lifetime.md): verification and battery due dates,
 * how each device is read, the remote-reading register and the walk-by list.
 */

/** How a device is read: by a collector or another remote system, on a walk-by, or by hand (declared). */
export const READ_METHODS = ['remote', 'walkby', 'manual'] as const;
export type ReadMethod = (typeof READ_METHODS)[number];
export const ReadMethodSchema = Type.Union(READ_METHODS.map((m) => Type.Literal(m)));

/** Why a device is due: its verification runs out, or (allocators) its battery ends. */
export const DUE_REASONS = ['verification', 'battery'] as const;
export type DueReason = (typeof DUE_REASONS)[number];

/** Where a due date lies from today: past, in this month, or in the next months asked for. */
export const DUE_BUCKETS = ['overdue', 'thisMonth', 'soon'] as const;
export type DueBucket = (typeof DUE_BUCKETS)[number];

/** EU 2023/1791 Art. 16: every meter and allocator remotely readable by this day. */
export const REMOTE_DEADLINE = '2027-01-01';
/** Devices installed after this day must already be remotely readable (the Lithuanian heat law). */
export const REMOTE_REQUIRED_SINCE = '2020-10-25';
/** The most months ahead a due list looks. */
export const DUE_MONTHS_MAX = 60;
/** The most months in a row the walk-by list looks back. */
export const WALK_BY_MONTHS_MAX = 24;

export const DueRow = Type.Object({
  DeviceId: Id,
  BuildingId: Id,
  /** The building's address as one line. */
  Address: Type.String(),
  /** The flat's name; null for a building's device. */
  Flat: Nullable(Type.String()),
  FlatOrder: Nullable(Type.Integer()),
  DeviceTypeId: Type.Integer(),
  DeviceCode: Type.String(),
  Model: Nullable(Type.String()),
  DueDate: Day,
  Reason: Type.Union(DUE_REASONS.map((r) => Type.Literal(r))),
  Bucket: Type.Union(DUE_BUCKETS.map((b) => Type.Literal(b))),
});
export type DueRow = Static<typeof DueRow>;

const DueQuery = Type.Object({
  /** The months after this one the list looks into (default 3). */
  months: Type.Optional(Type.Integer({ minimum: 0, maximum: DUE_MONTHS_MAX })),
  buildingId: Type.Optional(Id),
  deviceTypeId: Type.Optional(Type.Integer({ minimum: 1, maximum: 32767 })),
});

export const getDueDevices = defineEndpoint({
  method: 'GET',
  path: '/lifetime/due',
  summary:
    'Devices in service whose verification or battery is due (docs/device-lifetime.md): overdue, this month, or ' +
    'within the next `months` months, by building address and flat. Groups 1 and 2 (its scope); group 3: 403.',
  tags: ['lifetime'],
  auth: 'user',
  querystring: DueQuery,
  response: Type.Object({ Today: Day, Rows: Type.Array(DueRow) }),
});

export const getDueWorkList = defineEndpoint({
  method: 'GET',
  path: '/lifetime/due/work-list',
  summary: "The due list as a fitter's printable work list (PDF), sorted by address, floor and flat. Groups 1 and 2.",
  tags: ['lifetime'],
  auth: 'user',
  querystring: Type.Object({ ...DueQuery.properties, lang: Type.Optional(StatementLanguage) }),
  response: Type.String(),
  produces: 'application/pdf',
});

const TypeCounts = Type.Object({
  DeviceTypeId: Type.Integer(),
  Remote: Type.Integer({ minimum: 0 }),
  WalkBy: Type.Integer({ minimum: 0 }),
  Manual: Type.Integer({ minimum: 0 }),
});

export const RemoteBuilding = Type.Object({
  BuildingId: Id,
  Address: Type.String(),
  Devices: Type.Integer({ minimum: 0 }),
  Remote: Type.Integer({ minimum: 0 }),
  /** Remote / Devices × 100, one decimal; null without devices. */
  RemotePercent: Nullable(Type.Number()),
  ByType: Type.Array(TypeCounts),
  /** Devices installed after REMOTE_REQUIRED_SINCE that are not read remotely. */
  LateNotRemote: Type.Array(
    Type.Object({
      DeviceId: Id,
      DeviceTypeId: Type.Integer(),
      DeviceCode: Type.String(),
      Flat: Nullable(Type.String()),
      InstalledAt: Nullable(Timestamp),
      ReadMethod: ReadMethodSchema,
    }),
  ),
  Exception: Nullable(Type.Object({ Note: Type.String(), NotedAt: Timestamp, NotedBy: Nullable(Type.String()) })),
});
export type RemoteBuilding = Static<typeof RemoteBuilding>;

export const RemoteRegister = Type.Object({
  Today: Day,
  Deadline: Day,
  /** Days from today to the deadline (0 once it has passed). */
  DaysLeft: Type.Integer({ minimum: 0 }),
  Summary: Type.Object({
    Buildings: Type.Integer({ minimum: 0 }),
    Devices: Type.Integer({ minimum: 0 }),
    Remote: Type.Integer({ minimum: 0 }),
    RemotePercent: Nullable(Type.Number()),
    LateNotRemote: Type.Integer({ minimum: 0 }),
    /** Buildings with every device remote. */
    BuildingsDone: Type.Integer({ minimum: 0 }),
    BuildingsWithException: Type.Integer({ minimum: 0 }),
  }),
  Buildings: Type.Array(RemoteBuilding),
});
export type RemoteRegister = Static<typeof RemoteRegister>;

export const getRemoteRegister = defineEndpoint({
  method: 'GET',
  path: '/lifetime/remote-register',
  summary:
    'The remote-reading register (EU 2023/1791 Art. 16; docs/device-lifetime.md): per building the devices in ' +
    'service by type and how they are read, % remote, those installed after 2020-10-25 not remote, the exception ' +
    'note; a provider-wide summary and the days left. Groups 1 and 2 (its scope); group 3: 403.',
  tags: ['lifetime'],
  auth: 'user',
  querystring: Type.Object({ buildingId: Type.Optional(Id) }),
  response: RemoteRegister,
});

export const getRemoteRegisterPdf = defineEndpoint({
  method: 'GET',
  path: '/lifetime/remote-register/pdf',
  summary: 'The remote-reading register as a PDF, evidence for the regulator. Groups 1 and 2 (its scope).',
  tags: ['lifetime'],
  auth: 'user',
  querystring: Type.Object({ lang: Type.Optional(StatementLanguage) }),
  response: Type.String(),
  produces: 'application/pdf',
});

/** The longest exception note. */
export const REMOTE_EXCEPTION_MAX_LENGTH = 2000;

export const setRemoteException = defineEndpoint({
  method: 'PUT',
  path: '/lifetime/remote-register/:buildingId/exception',
  summary:
    "Writes a building's exception note of the remote-reading register (why making it remote is not " +
    'cost-efficient), or removes it (null); audited. Group 1 only.',
  tags: ['lifetime'],
  auth: 'operator',
  params: Type.Object({ buildingId: Id }),
  body: Type.Object({
    note: Nullable(Type.String({ minLength: 1, maxLength: REMOTE_EXCEPTION_MAX_LENGTH, pattern: '\\S' })),
  }),
  response: Type.Object({ BuildingId: Id, Note: Nullable(Type.String()), NotedAt: Nullable(Timestamp) }),
});

export const WalkByFlat = Type.Object({
  FlatId: Id,
  BuildingId: Id,
  Address: Type.String(),
  Flat: Type.String(),
  FlatOrder: Nullable(Type.Integer()),
  /** The flat's devices in service whose last `months` month ends were all not measured. */
  DeviceCodes: Type.Array(Type.String()),
});
export type WalkByFlat = Static<typeof WalkByFlat>;

export const getWalkByList = defineEndpoint({
  method: 'GET',
  path: '/lifetime/walk-by',
  summary:
    'Flats with a device in service whose month ends were not measured for the last `months` completed months in ' +
    'a row (default 2), by address: to be read by hand. Groups 1 and 2 (its scope); group 3: 403.',
  tags: ['lifetime'],
  auth: 'user',
  querystring: Type.Object({ months: Type.Optional(Type.Integer({ minimum: 1, maximum: WALK_BY_MONTHS_MAX })) }),
  response: Type.Object({ Months: Type.Array(Type.String()), Flats: Type.Array(WalkByFlat) }),
});
