/** The fields of CSV lines as people's spreadsheets write them: the readings import and the degree-days import. */

/** The delimiter of a file: semicolon or tab when the first line has one, else comma. */
export function detectDelimiter(firstLine: string): string {
  if (firstLine.includes(';')) return ';';
  return firstLine.includes('\t') ? '\t' : ',';
}

/** Splits a line; double quotes may wrap a field ("12,5" with a comma delimiter), "" is a quote inside. */
export function splitLine(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (line[i + 1] === '"') field += line[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}
