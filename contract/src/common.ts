import { type Static, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import { MAX_INT } from './input.js';
import { MAX_PAGE_SIZE } from './limits.js';

/**
 * A value or null. For a primitive it is `{ type: [T, 'null'] }` rather than an
 * `anyOf` union: the response serialiser checks an `anyOf` per value, which made
 * a 5,000-row readings answer ~9x slower to serialise (docs/benchmarks.md).
 */
export function Nullable<T extends TSchema>(t: T): TUnsafe<Static<T> | null> {
  const type = (t as { type?: unknown }).type;
  if (typeof type === 'string' && type !== 'object' && type !== 'array') {
    return Type.Unsafe<Static<T> | null>({ ...t, type: [type, 'null'] });
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([t, Type.Null()]));
}

/** A timestamp as ISO 8601 with the provider zone's offset, e.g. 2026-03-29T04:00:00+03:00. */
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 with offset' });
/** A calendar day, YYYY-MM-DD. */
export const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
/**
 * A day as the client sends it: 'YYYY-MM-DD', or normalised 'YYYY-MM-DD 00:00:00' /
 * 'YYYY-MM-DD 23:59:59' (docs/domain.md §5). Only the day counts.
 */
export const DayParam = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?)?$',
  description: 'YYYY-MM-DD, optionally followed by a time that is ignored',
});

export const Id = Type.Integer({ minimum: 1, maximum: MAX_INT });
export const IdParams = Type.Object({ id: Id });
/** Paging query: 1-based page and a page size up to MAX_PAGE_SIZE. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
};
/** `userId` is accepted for compatibility with the old client; it must be the caller unless group 1 or 2. */
export const UserIdQuery = { userId: Type.Optional(Id) };

export const Ok = Type.Object({ message: Type.String() });
