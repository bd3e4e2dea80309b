// npm run register:import -w server -- <file.xlsx|file.csv> [--apply] [--user NAME]
// Register import (docs/master-data.md) from the command line: a preview by default, --apply to write
// (all or nothing). The audit log names --user (an existing account) or "system".
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ImportReport } from '@rodmenys/contract';
import { openDb } from '../db/open.js';
import { loadConfig } from '../env.js';
import type { Actor } from '../services/audit/record-audit.js';
import { importRegister } from '../services/master-data/register-import/index.js';
import { runCli } from './run.js';

const USAGE = 'Usage: npm run register:import -- <file.xlsx|file.csv> [--apply] [--user NAME]';

/** The report as lines of text: counts per record kind, then every bad row. */
export function formatImportReport(r: ImportReport): string {
  const lines = [`${r.Applied ? 'Applied' : 'Preview (nothing written)'}: ${r.Rows} rows`];
  for (const kind of ['Locations', 'Objects', 'Clients', 'Devices'] as const) {
    const c = r[kind];
    lines.push(`  ${kind.padEnd(10)} ${c.Created} new, ${c.Changed} changed, ${c.Unchanged} unchanged`);
  }
  if (r.ErrorCount) lines.push(`${r.ErrorCount} errors:`);
  for (const e of r.Errors) lines.push(`  line ${e.Line}: ${e.Message} [${e.Code}]`);
  if (r.ErrorCount > r.Errors.length) lines.push(`  … and ${r.ErrorCount - r.Errors.length} more`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  let parsed: { values: { apply: boolean; user?: string; help: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        apply: { type: 'boolean', default: false },
        user: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }) as typeof parsed;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 1;
  }
  const file = parsed.positionals[0];
  if (parsed.values.help || !file || parsed.positionals.length > 1) {
    console.log(USAGE);
    return parsed.values.help ? 0 : 1;
  }
  const data = readFileSync(file);
  const db = await openDb(loadConfig());
  try {
    let actor: Actor = null;
    if (parsed.values.user) {
      const { rows } = await db.query<{ id: number; username: string }>(
        'SELECT id, username FROM app_user WHERE lower(username) = lower($1)',
        [parsed.values.user],
      );
      if (!rows[0]) {
        console.error(`No user named "${parsed.values.user}"`);
        return 1;
      }
      actor = rows[0];
    }
    const report = await importRegister(db, actor, data, {
      apply: parsed.values.apply,
      fileName: path.basename(file),
    });
    console.log(formatImportReport(report));
    return report.ErrorCount ? 1 : 0;
  } finally {
    await db.close();
  }
}

await runCli(main);
