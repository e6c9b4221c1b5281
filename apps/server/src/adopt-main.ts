import { ConfigError, loadConfig } from './config/env.ts';
import { checkAdoption } from './db/adopt/adoption-check.ts';

/**
 * `npm run adopt -- --check`: reads the database SQL_DSN / SQLITE_PATH point at (the server's own
 * configuration) and prints what the first start would do to it, changing nothing. Adoption
 * itself happens when the server starts.
 */
async function main(): Promise<void> {
  if (!process.argv.slice(2).includes('--check')) {
    process.stdout.write(
      'usage: npm run adopt -- --check\n  prints what starting Switchyard would do to the configured database; changes nothing.\n  Adoption itself runs when the server starts (npm start).\n',
    );
    process.exit(2);
  }
  const config = loadConfig();
  const lines = await checkAdoption(config.database, config.logDatabase === null);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  const reason =
    error instanceof ConfigError
      ? `invalid configuration: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`switchyard adopt: ${reason}\n`);
  process.exit(1);
});
