import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';

/** Where the filled logs table is: the SQLite file, or the PostgreSQL DSN. */
export type LogTableLocation = { database: 'sqlite'; path: string } | { database: 'postgres'; dsn: string };

/** The aggregates' watermark and the newest logs id, read as the server's roll-up sees them. */
async function readProgress(location: LogTableLocation): Promise<{ through: number; newest: number }> {
  const query =
    'SELECT (SELECT coalesce(max(rolled_up_through), 0) FROM log_rollup_state) AS through, ' +
    '(SELECT coalesce(max(id), 0) FROM logs) AS newest';
  if (location.database === 'sqlite') {
    const db = new Database(location.path, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare(query).get() as { through: number; newest: number };
      return { through: Number(row.through), newest: Number(row.newest) };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: location.dsn });
  await client.connect();
  try {
    const { rows } = await client.query(query);
    return { through: Number(rows[0].through), newest: Number(rows[0].newest) };
  } finally {
    await client.end();
  }
}

/**
 * Waits until the server's roll-up has counted every row of the fill (the stat queries are
 * measured on caught-up aggregates, as on a server that has been running), reporting progress.
 */
export async function waitForLogAggregates(
  location: LogTableLocation,
  log: (message: string) => void,
): Promise<void> {
  let reported = 0;
  for (;;) {
    const { through, newest } = await readProgress(location);
    if (through >= newest) return;
    if (Date.now() - reported > 30_000) {
      log(
        `log aggregates: ${through.toLocaleString('en-US')} of ${newest.toLocaleString('en-US')} rows counted`,
      );
      reported = Date.now();
    }
    await sleep(2000);
  }
}
