/**
 * How a value becomes JSON text in SQL: `number` by its text form (integers and
 * float8 print as JSON numbers), `numeric` by its exact decimal text without
 * trailing zeros (parsed, the same double as the value cast to float8),
 * `string` escaped by to_json, `plain` a string that needs no escaping (ISO
 * timestamps, days, enum codes), `json` already JSON text. NULL becomes null.
 */
export type JsonKind = 'number' | 'numeric' | 'string' | 'plain' | 'json';

/** A member of a JSON object: its name (a plain identifier), SQL expression and kind. */
export type JsonField = readonly [name: string, sql: string, kind: JsonKind];

const valueSql = (sql: string, kind: JsonKind) => {
  switch (kind) {
    case 'number':
    case 'json':
      return `coalesce((${sql})::text, 'null')`;
    case 'numeric':
      return `coalesce(trim_scale(${sql})::text, 'null')`;
    case 'string':
      return `coalesce(to_json(${sql})::text, 'null')`;
    case 'plain':
      return `coalesce('"' || (${sql}) || '"', 'null')`;
  }
};

const memberArgs = (fields: readonly JsonField[], first: boolean) =>
  fields.flatMap(([name, sql, kind], i) => {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`not a plain field name: ${name}`);
    return [`'${first && i === 0 ? '' : ','}"${name}":'`, valueSql(sql, kind)];
  });

/**
 * SQL for the members `,"A":…,"B":…` as text (each with its leading comma), to
 * splice into jsonObjectSql: e.g. computed once per location rather than per device.
 */
export const jsonMembersSql = (fields: readonly JsonField[]) => `concat(${memberArgs(fields, false).join(', ')})`;

/**
 * The SQL text expression of a JSON object with these members, in this order:
 * fields, or `{ members }` from jsonMembersSql (not first). One concat() per row,
 * which looks up its output functions once per query, where json_build_object
 * looks up the type of every argument on every row (docs/benchmarks.md).
 */
export function jsonObjectSql(parts: ReadonlyArray<JsonField | { members: string }>): string {
  const args = parts.flatMap((part, i) => {
    if ('members' in part) {
      if (i === 0) throw new Error('a JSON object cannot start with spliced members');
      return [part.members];
    }
    return memberArgs([part], i === 0);
  });
  return `concat('{', ${args.join(', ')}, '}')`;
}
