#!/usr/bin/env node
// Part of `npm run lint`: fails when code compares a user group, a location level or a
// device type with a bare number, or picks a level out of a location's path by number
// (`path[6]`). The vocabulary lives in contract/src/domain.ts (GROUP, LOCATION_LEVEL,
// DEVICE_TYPE and the rules over them) and, for SQL, in server/src/services/sql.ts
// (buildingIdOf, cityIdOf): docs/ARCHITECTURE.md, "Domain vocabulary".
//
// Scanned: the source of contract/, server/ and web/, their tests too, migrations aside (SQL
// migrations cannot import constants), and comments aside. Every pattern below names a domain
// column or field, so other numbers (heading levels, compression levels, counts) never match; a
// field set to a number outside the domain (a test's `groupId: 7`, sent to be refused) is no
// literal of it. The browser tests (e2e/) are not scanned: they name screens, not records.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const SCANNED = /^(contract|server|web)\/src\/.*\.(ts|tsx|mjs)$/;
const SKIPPED = [/^contract\/src\/domain\.ts$/];
/**
 * Test files still to be rewritten with the domain's names (other work on them is under way); the
 * list only shrinks: a listed file without a literal left is reported, to be taken off.
 */
const NOT_YET = [];

/** A field (`groupId: 3`, `"deviceTypeId": 1`, `Level: 6`) or a query parameter (`deviceTypeId=1`) set to one of the domain's numbers. */
const FIELD = String.raw`['"]?\s*:\s*`;

/** A comparison operator of TypeScript or SQL, then a bare number. */
const CMP = String.raw`\s*(?:===|!==|==|!=|<>|<=|>=|<|>|=)\s*\(?\s*\d`;
const RULES = [
  {
    what: 'a group number (use GROUP or a rule of contract/src/domain.ts)',
    re: new RegExp(String.raw`\bgroup_?id${CMP}`, 'i'),
  },
  {
    what: 'a group number (use GROUP or a rule of contract/src/domain.ts)',
    re: /\d\s*(?:===|!==)\s*[\w.?]*group_?id\b/i,
  },
  { what: 'a location level number (use LOCATION_LEVEL)', re: new RegExp(String.raw`(?<![\w-])level${CMP}`, 'i') },
  { what: 'a location level number (use LOCATION_LEVEL)', re: /\d\s*(?:===|!==)\s*[\w.?]*\blevel\b/i },
  { what: 'a level picked from a path by number (use buildingIdOf/cityIdOf)', re: /\bpath\)?\[\d+\]/ },
  {
    what: 'a device type number (use DEVICE_TYPE)',
    re: new RegExp(String.raw`\b(?:device_)?type_?id${CMP}|\btype_?id\s+(?:NOT\s+)?IN\s*\(\s*\d`, 'i'),
  },
  {
    what: 'a device type number (use DEVICE_TYPE)',
    re: new RegExp(String.raw`\b(?:ty|type|\w+Type)\.Id${CMP}|\.type${CMP}`),
  },
  {
    what: 'a group number (use GROUP)',
    re: new RegExp(String.raw`\b(?:group_?id|groups?)${FIELD}[123]\b(?![.\d])|\bgroupId=[123]\b(?![.\d])`, 'i'),
  },
  {
    what: 'a location level number (use LOCATION_LEVEL)',
    re: new RegExp(String.raw`(?<![\w-])level${FIELD}[1-7]\b(?![.\d])`, 'i'),
    // A heading's level in a test's query (`findByRole('heading', { level: 2 })`) is no location's.
    unless: /['"]heading['"]/,
  },
  {
    what: 'a device type number (use DEVICE_TYPE)',
    re: new RegExp(
      String.raw`\b(?:device_?)?type_?id${FIELD}(?:11|[1-4])\b(?![.\d])|\bdeviceTypeId=(?:11|[1-4])\b(?![.\d])`,
      'i',
    ),
  },
];

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((f) => SCANNED.test(f) && !SKIPPED.some((re) => re.test(f)) && existsSync(join(root, f)));

const problems = [];
const notYetFound = new Set();
for (const file of files) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  let inBlockComment = false;
  lines.forEach((raw, i) => {
    let line = raw;
    if (inBlockComment) {
      const end = line.indexOf('*/');
      if (end < 0) return;
      line = line.slice(end + 2);
      inBlockComment = false;
    }
    line = line.replace(/\/\*.*?\*\//g, '');
    const trimmed = line.trim();
    if (trimmed.startsWith('/*') && !trimmed.includes('*/')) {
      inBlockComment = true;
      return;
    }
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('--')) return;
    // A trailing comment (`// …` or SQL `-- …`) is prose, not code.
    const code = line.replace(/\s(?:\/\/|--)\s.*$/, '');
    for (const rule of RULES) {
      const m = rule.re.exec(code);
      if (!m || rule.unless?.test(code)) continue;
      if (NOT_YET.includes(file)) notYetFound.add(file);
      else problems.push(`${file}:${i + 1}: "${m[0].trim()}" is ${rule.what}`);
    }
  });
}

for (const file of NOT_YET) {
  if (!notYetFound.has(file))
    problems.push(`${file}: no literal left: take it off NOT_YET in scripts/check-domain-literals.mjs`);
}

if (problems.length > 0) {
  console.error([...new Set(problems)].join('\n'));
  console.error(
    `\n${problems.length} literal group/level/type number(s). Name them from contract/src/domain.ts ` +
      '(docs/ARCHITECTURE.md, "Domain vocabulary").',
  );
  process.exit(1);
}
console.log(`check-domain-literals: ${files.length} files, no group, level or device type written as a number`);
