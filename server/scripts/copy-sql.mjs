// tsc copies no .sql and no .mjs: put the migrations and the backup's archive worker beside the compiled code.
import { cpSync } from 'node:fs';

cpSync(new URL('../src/db/migrations', import.meta.url), new URL('../dist/db/migrations', import.meta.url), {
  recursive: true,
});
cpSync(
  new URL('../src/db/folder-archive.mjs', import.meta.url),
  new URL('../dist/db/folder-archive.mjs', import.meta.url),
);
