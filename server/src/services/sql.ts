import { LOCATION_LEVEL } from '@rodmenys/contract';

/** Escapes LIKE wildcards in user input (the default escape character is a backslash). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A case-insensitive prefix pattern for `lower(col) LIKE $n` (uses the text_pattern_ops indexes). */
export const prefixPattern = (s: string) => `${escapeLike(s.trim().toLowerCase())}%`;

/**
 * The scope test on a location alias: `$n` is the caller's scope (null = all).
 * `path && scope` uses the GIN index on location.path.
 */
export const inScope = (alias: string, param: string) =>
  `(${param}::int[] IS NULL OR ${alias}.path && ${param}::int[])`;

/**
 * The id of the building a location (`alias`) lies in, or is: the building level's place
 * in its path (docs/domain.md §3). Readings are grouped and ordered by it.
 */
export const buildingIdOf = (alias: string) => `${alias}.path[${LOCATION_LEVEL.building}]`;

/** Buildings in address order (numbers naturally: 2 < 10 < 10A), over a location alias. */
export const buildingOrder = (a: string) =>
  `${a}.country, ${a}.county, ${a}.region, ${a}.city, ${a}.street, building_number(${a}.building), ${a}.building`;

/** The id of the city a location lies in (degree-days are per city; docs/data-quality.md). */
export const cityIdOf = (alias: string) => `${alias}.path[${LOCATION_LEVEL.city}]`;
