/** Runs a command: what `main` resolves to is the exit code; an error is printed as one line (no stack), exit 1. */
export async function runCli(main: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
