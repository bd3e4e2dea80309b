import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { architectureProblems, importProblems, LAYERED } from './check-architecture.mjs';

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

test('the server and the web import downhill: no circle of rooms or files but the known ones', () => {
  assert.deepEqual(importProblems(root), []);
});

/** A throwaway git work tree holding `files` ({ path: text }). */
function tree(files) {
  const dir = mkdtempSync(join(tmpdir(), 'arch-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('an import that runs uphill is found, with the imports of the circle; a type-only import counts, a test is no room', () => {
  const dir = tree({
    'server/src/services/low/piece.ts': "import type { Row } from '../high/use.js';\nexport const piece = 1;\n",
    'server/src/services/high/use.ts': "import { piece } from '../low/piece.js';\nexport type Row = typeof piece;\n",
    'server/src/services/low/piece.test.ts':
      "import { piece } from './piece.js';\nimport type { Row } from '../high/use.js';\n",
    'server/src/routes/r.ts': "import { piece } from '../services/low/piece.js';\n",
  });
  try {
    const problems = importProblems(dir, LAYERED, []);
    assert.deepEqual(problems, [
      'server/src: the rooms services/high/, services/low/ import one another in a circle, so an import runs uphill ' +
        '(move the shared piece down): server/src/services/high/use.ts -> server/src/services/low/piece.ts; ' +
        'server/src/services/low/piece.ts -> server/src/services/high/use.ts',
      'server/src: the files server/src/services/high/use.ts, server/src/services/low/piece.ts import one another in a circle',
    ]);
    // The shared piece moved down: no circle.
    writeFileSync(join(dir, 'server/src/services/low/piece.ts'), 'export const piece = 1;\n');
    assert.deepEqual(importProblems(dir, LAYERED, []), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a circle inside one room is a circle of files; a comment naming an import is not one', () => {
  const dir = tree({
    'web/src/pages/a/one.tsx': "import { two } from './two';\nexport const one = two;\n",
    'web/src/pages/a/two.ts':
      "// import { one } from './one';\nimport { three } from './three.js';\nexport const two = three;\n",
    'web/src/pages/a/three.ts': "import { one } from './one.js';\nexport const three = () => one;\n",
  });
  try {
    assert.deepEqual(importProblems(dir, LAYERED, []), [
      'web/src: the files web/src/pages/a/one.tsx, web/src/pages/a/three.ts, web/src/pages/a/two.ts import one another in a circle',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
