#!/usr/bin/env node
// Part of `npm run lint`: fails when docs/ARCHITECTURE.md names a path that the repository
// does not have, so the map stays true as files move. Checked: every entry of the tree (the
// first names of a line of the fenced block under "The tree", resolved against the folders
// above it by indentation) and every path written with a slash anywhere in the document
// (resolved against the repository root and the workspaces' usual roots). Placeholders
// (`<resource>`, `*`) and URLs are not paths.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DOC = 'docs/ARCHITECTURE.md';

/** Where a relative path in prose may start from. */
const BASES = [
  '',
  'server/',
  'server/src/',
  'server/src/services/',
  'server/src/db/',
  'web/',
  'web/src/',
  'contract/',
  'contract/src/',
  'e2e/',
  'bench/',
  'bench/src/',
  'scripts/',
  'docs/',
];
const isPlaceholder = (p) => /[<>*{}…]/.test(p);
/** Build output and test artefacts: named in the map, made by a build or a run. */
const GENERATED = /(^|\/)(dist|\.artifacts|node_modules)(\/|$)/;

/** The paths `text` (the map) names that the repository at `root` lacks, one message each. */
export function architectureProblems(text, root) {
  const lines = text.split('\n');
  const exists = (p) => GENERATED.test(p) || existsSync(join(root, p));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  /** A path in prose written from a folder named nearby (`devices-data/fields.ts`): some file ends with it. */
  const endsSomeFile = (p) => files.some((f) => f.endsWith(`/${p}`) || f.includes(`/${p.replace(/\/$/, '')}/`));

  const problems = [];

  // 1. The tree: a fenced block after the heading "## The tree".
  const treeStart = lines.findIndex((l) => /^## The tree/.test(l));
  if (treeStart < 0) problems.push(`${DOC}: no "## The tree" section`);
  else {
    const open = lines.findIndex((l, i) => i > treeStart && l.startsWith('```'));
    const close = lines.findIndex((l, i) => i > open && l.startsWith('```'));
    /** Folders by indentation: stack of [indent, path]. */
    const stack = [];
    for (let i = open + 1; i < close; i++) {
      const line = lines[i];
      const indent = line.length - line.trimStart().length;
      // Annotation lines are indented to the description column; entries start with a name
      // followed by two spaces (or the end of the line).
      const m = /^(\s*)(\S+(?: \S+\.\w+)*)(?: {2,}|$)/.exec(line);
      if (!m) continue;
      while (stack.length && stack[stack.length - 1][0] >= indent) stack.pop();
      const parent = stack.length ? stack[stack.length - 1][1] : '';
      const names = m[2].split(' ');
      // A line indented as deep as the description column is a continued description.
      if (indent >= 22 && !names.every((n) => /[/.]/.test(n))) continue;
      for (const name of names) {
        if (!/[/.]/.test(name) || isPlaceholder(name)) continue;
        const candidate = parent + name;
        if (!exists(candidate) && !exists(name)) {
          problems.push(`${DOC}:${i + 1}: the tree names "${candidate}", which does not exist`);
        }
      }
      if (names.length === 1 && names[0].endsWith('/') && !isPlaceholder(names[0])) {
        stack.push([indent, parent + names[0]]);
      }
    }
  }

  // 2. Paths with a slash anywhere in the document.
  const PATH = /(?<![\w/.:-])((?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?)/g;
  const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
  lines.forEach((line, i) => {
    const urls = [...line.matchAll(URL)].map((m) => [m.index, m.index + m[0].length]);
    for (const m of line.matchAll(PATH)) {
      const p = m[1].replace(/[.,;:)]+$/, '');
      if (urls.some(([a, b]) => m.index >= a && m.index < b)) continue;
      if (isPlaceholder(p) || p.startsWith('/') || !/\.\w+$|\/$/.test(p)) continue;
      // API paths and MIME types are not files.
      if (/^(api|application|text|image|@[\w-]+)\//.test(p)) continue;
      if (!BASES.some((b) => exists(b + p)) && !endsSomeFile(p))
        problems.push(`${DOC}:${i + 1}: "${p}" does not exist`);
    }
  });

  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = architectureProblems(readFileSync(join(root, DOC), 'utf8'), root);
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`\n${problems.length} path(s) in ${DOC} that the repository does not have: make the map true.`);
    process.exit(1);
  }
  console.log(`check-architecture: every path ${DOC} names exists`);
}
