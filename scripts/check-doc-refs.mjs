#!/usr/bin/env node
// Part of `npm run lint`: fails when a file of the repository refers to a document a
// maintainer with only this repository cannot open: a `*.md` file that is not in it,
// or an issue number (the word "issue" and a number, or "#" and a number), which lives in a tracker, not here.
// Point such references at the repository's own docs/ instead (docs/ARCHITECTURE.md,
// "Documents and references").
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Files never scanned: generated, or third-party text. */
const SKIP = [/(^|\/)package-lock\.json$/, /(^|\/)node_modules\//, /\.(png|jpe?g|gif|ico|woff2?|xlsx|gz|br|wasm)$/i];
/** Colours (`#001529`) are not issue numbers: CSS is not scanned for them. */
const NO_ISSUE_SCAN = /\.(css|svg)$/i;

const MD_REF = /[\w./-]*[\w-]\.md\b/g;
const ISSUE_WORD = /\bissues?\s+#?\d+/gi;
const ISSUE_HASH = /(?<=^|[\s([,;])#[1-9]\d{0,5}\b/g;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((f) => f && !SKIP.some((re) => re.test(f)) && existsSync(join(root, f)));
const names = new Set(files.map((f) => basename(f)));

/** Whether a `*.md` reference written in `file` names a document of the repository. */
function exists(ref, file) {
  if (!ref.includes('/')) return names.has(ref);
  const candidates = [join(root, ref), join(root, dirname(file), ref)];
  return candidates.some((p) => existsSync(p) && !relative(root, p).startsWith('..'));
}

const problems = [];
for (const file of files) {
  const text = readFileSync(join(root, file));
  if (text.includes(0)) continue; // binary
  const lines = text.toString('utf8').split('\n');
  lines.forEach((line, i) => {
    const urls = [...line.matchAll(URL)].map((m) => [m.index, m.index + m[0].length]);
    const inUrl = (at) => urls.some(([a, b]) => at >= a && at < b);
    const report = (what) => problems.push(`${file}:${i + 1}: ${what}`);
    for (const m of line.matchAll(MD_REF)) {
      if (!inUrl(m.index) && !exists(m[0], file)) report(`"${m[0]}" is not in the repository`);
    }
    for (const m of line.matchAll(ISSUE_WORD)) if (!inUrl(m.index)) report(`"${m[0]}" cites an issue number`);
    if (!NO_ISSUE_SCAN.test(file)) {
      for (const m of line.matchAll(ISSUE_HASH)) if (!inUrl(m.index)) report(`"${m[0]}" cites an issue number`);
    }
  });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\n${problems.length} reference(s) to documents not in the repository. ` +
      'Cite the repository\'s own docs/ instead (e.g. "docs/domain.md §5").',
  );
  process.exit(1);
}
console.log(`check-doc-refs: ${files.length} files, every document reference is in the repository`);
