import { inScope } from '../sql.js';

/**
 * A location is visible when it lies in a granted subtree, or is an ancestor of
 * a granted location (so a user granted one building sees its city, street and
 * country as headings and filter values). `$scope` null = everything (group 1).
 * Needs the CTE `ancestors` from ANCESTORS_CTE.
 */
export const ANCESTORS_CTE = (scopeParam: string) =>
  `ancestors AS (SELECT DISTINCT unnest(path) AS id FROM location WHERE id = ANY(coalesce(${scopeParam}::int[], '{}')))`;

export const isVisible = (alias: string, scopeParam: string) =>
  `(${inScope(alias, scopeParam)} OR ${alias}.id IN (SELECT id FROM ancestors))`;
