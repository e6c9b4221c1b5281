import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import {
  FALLBACK_AUTOCHECKPOINT,
  SQLITE_DEFAULT_AUTOCHECKPOINT,
  startWalCheckpointer,
  type WalCheckpointer,
} from './wal-checkpointer.ts';

const PAGE = 4096;
const directories: string[] = [];

function scratchFile(): string {
  const directory = mkdtempSync(join(tmpdir(), 'sy-wal-'));
  directories.push(directory);
  return join(directory, 'switchyard.db');
}

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Nice values of this process's threads (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which is in parentheses and may hold spaces).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The worker's pass count once it exceeds `after`, or what it is when `limitMs` has passed. */
async function passAfter(checkpointer: WalCheckpointer, after: number, limitMs: number): Promise<number> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const { checkpoints } = await checkpointer.stats();
    if (checkpoints > after || Date.now() >= deadline) return checkpoints;
    await pause(5);
  }
}

describe('WAL checkpoints on a worker thread', () => {
  it('copies the WAL into the database file while the main connection only checkpoints past the fallback size', async () => {
    const file = scratchFile();
    const handle = openDatabase({ kind: 'sqlite', location: file }, { checkpointIntervalMs: 10 });
    const sqlite = handle.sqlite!;
    try {
      await handle.checkpointer!.ready;
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT);
      // The worker lowered its own thread's priority, not the process's.
      expect(threadNiceValues()).toContain(10);
      expect(threadNiceValues()[0]).toBe(0);
      sqlite.exec('create table rows (id integer primary key, body blob)');
      const insert = sqlite.prepare('insert into rows (body) values (?)');
      const body = Buffer.alloc(3000, 7);
      // 3,000 commits of about one page each. The main connection checkpoints by itself only past
      // 10,000 pages, so every page that reaches the database file is the worker's doing. After
      // every 100 commits the loop waits for the worker's next pass: it runs at nice 10, and on a
      // machine whose two cores are busy with other test files it is starved now and then. A
      // worker that makes no pass within a second is taken for broken and no longer waited for.
      let passes = 0;
      let waiting = true;
      for (let commit = 0; commit < 3000; commit++) {
        insert.run(body);
        if (commit % 100 === 99 && waiting) {
          const before = passes;
          passes = await passAfter(handle.checkpointer!, before, 1000);
          waiting = passes > before;
        }
      }
      await passAfter(handle.checkpointer!, passes, 1000);
      const stats = await handle.checkpointer!.stats();
      expect(stats.checkpoints).toBeGreaterThan(5);
      // The rows are in the database file (~3,000 pages), not only in the WAL. Whether the WAL
      // also started over depends on the worker being idle when a commit lands: with spare CPU
      // it stays near 300 pages; under contention it can grow to the fallback size (ADR-23).
      expect(statSync(file).size).toBeGreaterThan(2500 * PAGE);
      expect(sqlite.prepare('select count(*) as n from rows').get()).toEqual({ n: 3000 });
    } finally {
      await handle.destroy();
    }
    // The worker is gone with the handle, and nothing was lost on the way.
    await expect(handle.checkpointer!.stats()).rejects.toThrow(/ended/);
    const reopened = new SQLite(file, { readonly: true });
    expect(reopened.prepare('select count(*) as n from rows').get()).toEqual({ n: 3000 });
    reopened.close();
  });

  it('leaves checkpoints to SQLite when the interval is 0, and for in-memory databases', async () => {
    const off = openDatabase({ kind: 'sqlite', location: scratchFile() }, { checkpointIntervalMs: 0 });
    const memory = openDatabase({ kind: 'sqlite', location: ':memory:' }, { checkpointIntervalMs: 10 });
    try {
      expect(off.checkpointer).toBeUndefined();
      expect(memory.checkpointer).toBeUndefined();
      expect(off.sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(SQLITE_DEFAULT_AUTOCHECKPOINT);
    } finally {
      await off.destroy();
      await memory.destroy();
    }
  });

  it('reports a worker that cannot open the file and gives checkpoints back to the main connection', async () => {
    const file = scratchFile();
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('wal_autocheckpoint = 5');
    // The main connection keeps its open file; the worker, opening by name, finds none.
    unlinkSync(file);
    const failures: Error[] = [];
    const checkpointer = startWalCheckpointer(sqlite, 10, (error) => failures.push(error));
    try {
      await expect(checkpointer.ready).rejects.toThrow();
      await pause(20);
      expect(failures).toHaveLength(1);
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(SQLITE_DEFAULT_AUTOCHECKPOINT);
    } finally {
      await checkpointer.stop();
      sqlite.close();
    }
  });
});
