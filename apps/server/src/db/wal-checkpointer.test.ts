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

describe('WAL checkpoints on a worker thread', () => {
  it('keeps the WAL small while the main connection only checkpoints past the fallback size', async () => {
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
      // 3,000 commits of about one page each: without the worker the WAL would pass 3,000 pages,
      // since the main connection now waits for 10,000 before checkpointing by itself.
      for (let commit = 0; commit < 3000; commit++) {
        insert.run(body);
        if (commit % 100 === 99) await pause(15);
      }
      await pause(50);
      const stats = await handle.checkpointer!.stats();
      expect(stats.checkpoints).toBeGreaterThan(5);
      // The file keeps the largest extent the WAL reached. A worker starved of CPU (it runs at
      // nice 10, and CI's two cores are busy with other test files) lets it pass 1,500 pages now
      // and then (1,528 seen once); without a working worker it passes 3,000.
      expect(statSync(`${file}-wal`).size).toBeLessThan(2400 * PAGE);
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
