import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { architectureProblems } from './check-architecture.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const map = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');

test('the repository map names only paths that exist', () => {
  assert.deepEqual(architectureProblems(map, root), []);
});

test('a tree entry that moved away is found, under its folder', () => {
  const tree =
    '## The tree\n\n```\nserver/\n  src/gone.ts           was here once\n  src/app.ts            builds the app\n```\n';
  const problems = architectureProblems(tree, root);
  assert.ok(problems.includes('docs/ARCHITECTURE.md:5: the tree names "server/src/gone.ts", which does not exist'));
  assert.ok(
    problems.every((p) => p.startsWith('docs/ARCHITECTURE.md:5:')),
    problems.join('\n'),
  );
});

test('a path in prose that no file has is found; placeholders, URLs and build output are not paths', () => {
  const prose =
    '## The tree\n\n```\n```\n`services/statements/nowhere.ts` and `routes/<resource>.ts`, ' +
    'https://example.org/a/b.ts, server/dist/server.js, `services/sql.ts`\n';
  assert.deepEqual(architectureProblems(prose, root), [
    'docs/ARCHITECTURE.md:5: "services/statements/nowhere.ts" does not exist',
  ]);
});
