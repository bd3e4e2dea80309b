import { existsSync } from 'node:fs';

/** Runs a command: what `main` resolves to is the exit code; an error is printed as one line (no stack), exit 1. */
export async function runCli(main: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}

/**
 * The one FILE argument of `npm run db:backup|db:restore` (settings from `.env` in the working
 * folder, as the server reads them). A number is the exit code: usage shown, or DATABASE_URL set
 * (a PostgreSQL server has its own tools: `serverTool`, docs/operations.md).
 */
export function embeddedFileArgument(argv: string[], usage: string, serverTool: string): string | number {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const [file] = argv;
  if (!file || file.startsWith('-') || argv.length > 1) {
    console.error(usage);
    return file === '--help' || file === '-h' ? 0 : 1;
  }
  if (process.env.DATABASE_URL) {
    console.error(`DATABASE_URL is set: ${serverTool} (docs/operations.md)`);
    return 1;
  }
  return file;
}
