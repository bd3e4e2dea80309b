#!/usr/bin/env node
// Part of `npm run lint`: fails when docs/ARCHITECTURE.md names a path that the repository
// does not have, so the map stays true as files move. Checked: every entry of the tree (the
// first names of a line of the fenced block under "The tree", resolved against the folders
// above it by indentation) and every path written with a slash anywhere in the document
// (resolved against the repository root and the workspaces' usual roots). Placeholders
// (`<resource>`, `*`) and URLs are not paths.
//
// It also fails when an import runs uphill (docs/ARCHITECTURE.md, "Imports run downhill"): the
// rooms of the server's and the web's source (a first folder under src/, a folder of
// services/, pages/ or components/, or a file of its own) must import one another without a
// circle, and so must their files; then every room stands above all it imports.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
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

/** Sources whose rooms must not import in a circle; `deep`: folders whose subfolders are rooms. */
export const LAYERED = [
  { src: 'server/src', deep: ['services'] },
  { src: 'web/src', deep: ['pages', 'components'] },
];

/**
 * Imports known to run uphill, each with why it stays for now: [importer, imported, why]. An entry
 * that no longer matches an import is itself a problem, so the list only shrinks.
 */
export const KNOWN_UPHILL = [
  [
    'server/src/services/billing/rows.ts',
    'server/src/services/statements/figures.ts',
    'billing reads the statements figures while publishing (statements/publish.ts) freezes the billing export',
  ],
];

const SOURCE = /\.(ts|tsx|mjs)$/;
const NOT_A_ROOM = /(\.(test|spec|d)\.tsx?$)|(\.test\.mjs$)/;
const IMPORT =
  /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The room of `file` (relative to `src`). */
function roomOf(rel, deep) {
  const parts = rel.split('/');
  if (parts.length > 2 && deep.includes(parts[0])) return `${parts[0]}/${parts[1]}/`;
  return parts.length > 1 ? `${parts[0]}/` : rel;
}

/** The strongly connected parts (Tarjan) of a graph given as Map<node, Set<node>> with more than one node. */
function circles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const part = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) out.push(part.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * The imports between the files of each `layers` source (tests and the test harness aside) that run
 * uphill: rooms or files that import one another in a circle, one message each, the known ones aside.
 */
export function importProblems(root, layers = LAYERED, known = KNOWN_UPHILL) {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && SOURCE.test(f) && !NOT_A_ROOM.test(f) && existsSync(join(root, f)));
  const problems = [];
  const seenKnown = new Set();
  for (const { src, deep } of layers) {
    const files = new Set(tracked.filter((f) => f.startsWith(`${src}/`) && !f.startsWith(`${src}/test/`)));
    const resolve = (from, spec) => {
      if (!spec.startsWith('.')) return null;
      const base = posix.join(posix.dirname(from), spec).replace(/\.(js|mjs|jsx)$/, '');
      const found = ['.ts', '.tsx', '.mjs', '/index.ts', '/index.tsx', ''].map((e) => base + e);
      return found.find((f) => files.has(f)) ?? null;
    };
    const fileGraph = new Map();
    const roomGraph = new Map();
    /** room -> room -> the file imports that make the arrow. */
    const why = new Map();
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|(?<![:'"`])\/\/.*$/gm, '');
      fileGraph.set(file, new Set());
      for (const m of text.matchAll(IMPORT)) {
        const target = resolve(file, m[1] ?? m[2]);
        if (!target || target === file) continue;
        if (known.some(([a, b]) => a === file && b === target)) {
          seenKnown.add(`${file} -> ${target}`);
          continue;
        }
        fileGraph.get(file).add(target);
        const [ra, rb] = [roomOf(file.slice(src.length + 1), deep), roomOf(target.slice(src.length + 1), deep)];
        if (ra === rb) continue;
        if (!roomGraph.has(ra)) roomGraph.set(ra, new Set());
        roomGraph.get(ra).add(rb);
        const key = `${ra} -> ${rb}`;
        if (!why.has(key)) why.set(key, []);
        why.get(key).push(`${file} -> ${target}`);
      }
    }
    for (const part of circles(roomGraph)) {
      const inPart = new Set(part);
      const arrows = [...why.entries()]
        .filter(([k]) => {
          const [a, b] = k.split(' -> ');
          return inPart.has(a) && inPart.has(b);
        })
        .flatMap(([, list]) => list);
      problems.push(
        `${src}: the rooms ${part.join(', ')} import one another in a circle, so an import runs uphill ` +
          `(move the shared piece down): ${arrows.join('; ')}`,
      );
    }
    for (const part of circles(fileGraph))
      problems.push(`${src}: the files ${part.join(', ')} import one another in a circle`);
  }
  for (const [a, b] of known) {
    if (!seenKnown.has(`${a} -> ${b}`) && layers === LAYERED)
      problems.push(`scripts/check-architecture.mjs: ${a} no longer imports ${b}: take it off KNOWN_UPHILL`);
  }
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
  const uphill = importProblems(root);
  if (uphill.length) {
    console.error(uphill.join('\n'));
    console.error(`\n${uphill.length} circle(s) of imports: every import must run downhill (${DOC}).`);
    process.exit(1);
  }
  console.log(
    `check-architecture: every path ${DOC} names exists; imports run downhill (${KNOWN_UPHILL.length} known exception(s))`,
  );
}
