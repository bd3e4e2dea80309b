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
 * The SQL text expression of a JSON object with these members, in this order,
 * without its closing brace: the rest of the members come from jsonTailSql,
 * e.g. in another query. One concat() per row, which looks up its output
 * functions once per query, where json_build_object looks up the type of every
 * argument on every row (docs/benchmarks.md).
 */
export const jsonHeadSql = (fields: readonly JsonField[]) => `concat('{', ${memberArgs(fields, true).join(', ')})`;

/** The SQL text expression of the members `,"A":…,"B":…}` that end an object begun by jsonHeadSql. */
export const jsonTailSql = (fields: readonly JsonField[]) => `concat(${memberArgs(fields, false).join(', ')}, '}')`;
