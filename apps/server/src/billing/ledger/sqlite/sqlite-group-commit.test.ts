import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteGroupCommit } from './sqlite-group-commit.ts';

describe('SqliteGroupCommit', () => {
  let directory: string;
  let db: SQLite.Database;
  let other: SQLite.Database;
  let commit: SqliteGroupCommit;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const file = join(directory, 'db.sqlite');
    db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE rows (name TEXT PRIMARY KEY)');
    other = new SQLite(file);
    commit = new SqliteGroupCommit(db);
  });
  afterEach(() => {
    db.close();
    other.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const insert = (name: string) => () => db.prepare('INSERT INTO rows (name) VALUES (?)').run(name).changes;
  const names = (connection: SQLite.Database) =>
    connection
      .prepare('SELECT name FROM rows ORDER BY name')
      .all()
      .map((row) => (row as { name: string }).name);

  it('runs the work of one turn in one transaction and answers after the commit', async () => {
    let seenByOtherConnection: string[] | undefined;
    const first = commit.submit(insert('a'));
    const second = commit.submit(() => {
      insert('b')();
      // Still inside the group's transaction: another connection sees nothing of it yet.
      seenByOtherConnection = names(other);
      return 'second';
    });
    expect(commit.pending).toBe(2);
    expect(names(other)).toEqual([]);
    await expect(Promise.all([first, second])).resolves.toEqual([1, 'second']);
    expect(seenByOtherConnection).toEqual([]);
    expect(names(other)).toEqual(['a', 'b']);
    expect(commit.pending).toBe(0);
  });

  it('lets work submitted in the next check phase join the group (one more poll phase)', async () => {
    const sizes: number[] = [];
    const size = () => {
      sizes.push(commit.groupSize);
      return commit.groupSize;
    };
    const late = await new Promise<Promise<number>[]>((resolve) => {
      setImmediate(() => {
        // Submitted in a check phase: the group's first hop is queued before the callback below,
        // which submits in the same check phase as that hop, before the flush.
        const first = commit.submit(size);
        setImmediate(() => resolve([first, commit.submit(size)]));
      });
    });
    await expect(Promise.all(late)).resolves.toEqual([2, 2]);
    expect(sizes).toEqual([2, 2]);
  });

  it('rolls back only the piece that throws; the others commit', async () => {
    const kept = commit.submit(insert('kept'));
    const failed = commit.submit(() => {
      insert('undone')();
      throw new Error('short of quota');
    });
    const duplicate = commit.submit(insert('kept'));
    const after = commit.submit(insert('after'));
    await expect(kept).resolves.toBe(1);
    await expect(failed).rejects.toThrow('short of quota');
    await expect(duplicate).rejects.toThrow(/UNIQUE/);
    await expect(after).resolves.toBe(1);
    expect(names(other)).toEqual(['after', 'kept']);
  });

  it('waits while another transaction holds the connection and never joins it', async () => {
    db.exec('BEGIN');
    db.prepare("INSERT INTO rows (name) VALUES ('outside')").run();
    let done = false;
    const queued = commit.submit(insert('queued')).then((changes) => {
      done = true;
      return changes;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(done).toBe(false);
    db.exec('ROLLBACK');
    await expect(queued).resolves.toBe(1);
    expect(names(other)).toEqual(['queued']);
  });

  it('rejects every piece when the group cannot commit, and writes none of them', async () => {
    db.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    const pieces = [commit.submit(insert('x')), commit.submit(insert('y'))];
    const outcomes = await Promise.allSettled(pieces);
    other.exec('ROLLBACK');
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/locked|busy/i);
    expect(names(other)).toEqual([]);
    // The next group works again.
    await expect(commit.submit(insert('z'))).resolves.toBe(1);
    expect(names(other)).toEqual(['z']);
  });

  it('tells a piece how many pieces share its transaction; one when retried alone', async () => {
    const size = () => commit.groupSize;
    expect(size()).toBe(0);
    await expect(
      Promise.all([commit.submit(size), commit.submit(size), commit.submit(size)]),
    ).resolves.toEqual([3, 3, 3]);
    expect(size()).toBe(0);
    const failing = commit.submit(() => {
      throw new Error('spoils the group');
    });
    const retried = [commit.submit(size), commit.submit(size)];
    await expect(failing).rejects.toThrow('spoils the group');
    await expect(Promise.all(retried)).resolves.toEqual([1, 1]);
    expect(size()).toBe(0);
  });

  it('has a participant write its pending rows inside each commit, and forget them on a rollback', async () => {
    let pending: string[] = [];
    const calls: string[] = [];
    commit.join({
      beforeCommit: () => {
        calls.push(`write ${pending.join('+')}`);
        for (const name of pending) insert(name)();
        pending = [];
      },
      rolledBack: () => {
        calls.push('forget');
        pending = [];
      },
    });
    const leave =
      (name: string, fail = false) =>
      () => {
        pending.push(name);
        if (fail) throw new Error(`${name} failed`);
        return name;
      };
    await expect(Promise.all([commit.submit(leave('p1')), commit.submit(leave('p2'))])).resolves.toEqual([
      'p1',
      'p2',
    ]);
    expect(names(other)).toEqual(['p1', 'p2']);
    const results = await Promise.allSettled([commit.submit(leave('q1')), commit.submit(leave('q2', true))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    // The group rolled back (its pending forgotten); alone, q1 committed with its own row and
    // q2 failed again, leaving nothing.
    expect(names(other)).toEqual(['p1', 'p2', 'q1']);
    expect(calls).toEqual(['write p1+p2', 'forget', 'write q1', 'forget']);
  });
});
