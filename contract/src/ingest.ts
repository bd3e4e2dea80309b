import { type Static, Type } from '@sinclair/typebox';
import { IdParams, Nullable, PageQuery, Timestamp } from './common.js';
import { defineEndpoint, Paged } from './endpoint.js';
import { BULK_BODY_BYTES } from './input.js';

/** Telegrams one collector request may carry. */
export const MAX_INGEST_TELEGRAMS = 100_000;
/** Lines one CSV import may carry. */
export const MAX_CSV_LINES = 2_000_000;
export const COLLECTOR_KEY_NAME_MAX_LENGTH = 100;
/** Longest telegram (one JSON object of a collector request), in characters; wmbusmeters prints 0.3–3 KB. */
export const MAX_TELEGRAM_CHARS = 64 * 1024;

/** A telegram or CSV line that was not taken, and why. `Position` is 1-based: array element or line number. */
export const Rejected = Type.Object({
  Position: Type.Integer({ minimum: 1 }),
  /** The meter id (or serial) when it could be read. */
  MeterId: Nullable(Type.String()),
  Reason: Type.String(),
});
export type Rejected = Static<typeof Rejected>;

/**
 * What a collector request did. Received = Stored + Duplicates + Unmatched + Rejected.length.
 * A request is answered only after everything it reports as stored is committed.
 */
export const IngestResult = Type.Object({
  Received: Type.Integer({ minimum: 0 }),
  /** New telegrams of known devices (kept with their raw JSON, status flags and set-day value). */
  Stored: Type.Integer({ minimum: 0 }),
  /** Of the stored ones, how many gave a reading (the others carried no usable value). */
  Readings: Type.Integer({ minimum: 0 }),
  /** Telegrams already stored before, or repeated in the request (same device and reception time). */
  Duplicates: Type.Integer({ minimum: 0 }),
  /** Telegrams of meters that match no device: kept in the unmatched inbox. */
  Unmatched: Type.Integer({ minimum: 0 }),
  Rejected: Type.Array(Rejected),
});
export type IngestResult = Static<typeof IngestResult>;

export const WMBUSMETERS_CONTENT_TYPES = ['application/json', 'application/x-ndjson', 'text/plain'] as const;

export const ingestWmbusmeters = defineEndpoint({
  method: 'POST',
  path: '/ingest/wmbusmeters',
  summary:
    'Readings from a collector running wmbusmeters: the JSON it prints, as one object, an array of objects, or ' +
    'JSON lines (application/x-ndjson or text/plain). Authenticated with a collector key (`Authorization: Bearer ' +
    '<key>` or `X-Collector-Key`). Idempotent on device and reception time (`timestamp`). A body that is not ' +
    'JSON, or not objects, answers 400 with the position and stores nothing; a telegram whose content cannot be ' +
    'used is listed in Rejected with its position and reason while the others are stored.',
  tags: ['ingest'],
  auth: 'collector',
  consumes: WMBUSMETERS_CONTENT_TYPES,
  maxBodyBytes: BULK_BODY_BYTES,
  body: Type.String({ description: 'wmbusmeters JSON: an object, an array of objects, or one object per line' }),
  response: IngestResult,
});

/** Bad CSV lines listed in an answer; the rest are only counted. */
export const MAX_LISTED_CSV_REJECTS = 1000;

/** What a CSV import did. Lines = data lines read (a header line is not counted) = Stored + Duplicates + RejectedCount. */
export const CsvImportResult = Type.Object({
  Lines: Type.Integer({ minimum: 0 }),
  Stored: Type.Integer({ minimum: 0 }),
  /** Readings that were there already (same device and time), or repeated in the file. */
  Duplicates: Type.Integer({ minimum: 0 }),
  RejectedCount: Type.Integer({ minimum: 0 }),
  /** The first MAX_LISTED_CSV_REJECTS bad lines: `Position` is the line number. */
  Rejected: Type.Array(Rejected),
});
export type CsvImportResult = Static<typeof CsvImportResult>;

export const importCsv = defineEndpoint({
  method: 'POST',
  path: '/ingest/csv',
  summary:
    'Import readings from a `serial;time;value` file (text/csv; comma or semicolon; header optional; decimal ' +
    'comma or point; time as ISO 8601, with or without a zone: without one it is taken in the provider zone). ' +
    'Idempotent. Bad lines are listed with their number and reason; the good ones are imported. Group 1 only.',
  tags: ['ingest'],
  auth: 'operator',
  consumes: ['text/csv', 'text/plain'],
  maxBodyBytes: BULK_BODY_BYTES,
  body: Type.String({ description: 'CSV text: serial;time;value per line' }),
  response: CsvImportResult,
});

/** A meter whose telegrams match no device yet. */
export const UnmatchedMeter = Type.Object({
  MeterId: Type.String(),
  Driver: Nullable(Type.String()),
  FirstSeen: Timestamp,
  LastSeen: Timestamp,
  /** Telegrams kept for it. */
  Count: Type.Integer({ minimum: 0 }),
  /** The latest telegram as wmbusmeters printed it. */
  LastJson: Type.Unknown(),
});
export type UnmatchedMeter = Static<typeof UnmatchedMeter>;

export const listUnmatchedMeters = defineEndpoint({
  method: 'GET',
  path: '/ingest/unmatched',
  summary:
    'The inbox of meters that match no device (latest first). Their telegrams are kept and taken in ' +
    'automatically once a device with that serial number exists. Group 1 only.',
  tags: ['ingest'],
  auth: 'operator',
  querystring: Type.Object({
    ...PageQuery,
    /** Only this meter (exact serial number): the add-device form asks whether the serial waits here. */
    meterId: Type.Optional(Type.String({ maxLength: 64 })),
  }),
  response: Paged(UnmatchedMeter),
});

export const CollectorKey = Type.Object({
  Id: Type.Integer(),
  Name: Type.String(),
  /** The first characters of the key, to tell keys apart; the key itself is never shown again. */
  Prefix: Type.String(),
  CreatedAt: Timestamp,
  CreatedBy: Nullable(Type.String()),
  LastUsedAt: Nullable(Timestamp),
  RevokedAt: Nullable(Timestamp),
});
export type CollectorKey = Static<typeof CollectorKey>;

export const listCollectorKeys = defineEndpoint({
  method: 'GET',
  path: '/collector-keys',
  summary: 'Collector keys, newest first (revoked ones included). Group 1 only.',
  tags: ['ingest'],
  auth: 'operator',
  response: Type.Array(CollectorKey),
});

export const createCollectorKey = defineEndpoint({
  method: 'POST',
  path: '/collector-keys',
  summary: 'Create a collector key. The key is in this answer only: it is stored hashed. Group 1 only.',
  tags: ['ingest'],
  auth: 'operator',
  body: Type.Object({
    name: Type.String({ minLength: 1, maxLength: COLLECTOR_KEY_NAME_MAX_LENGTH, pattern: '\\S' }),
  }),
  response: Type.Object({ ...CollectorKey.properties, Key: Type.String() }),
  status: 201,
});

export const revokeCollectorKey = defineEndpoint({
  method: 'DELETE',
  path: '/collector-keys/:id',
  summary: 'Revoke a collector key: requests with it answer 401 from now on. Group 1 only.',
  tags: ['ingest'],
  auth: 'operator',
  params: IdParams,
  response: CollectorKey,
});
