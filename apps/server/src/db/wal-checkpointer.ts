import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** SQLite's own threshold: the commit that takes the WAL past this many pages checkpoints. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;
/**
 * While the worker checkpoints, the main connection checkpoints only when the WAL reaches this many
 * pages. Under steady load that is the normal way the WAL starts over: the worker has already
 * copied nearly every frame, so the main connection's checkpoint copies the last few and syncs.
 * It also keeps the WAL bounded if the worker stalls.
 */
export const FALLBACK_AUTOCHECKPOINT = 10_000;
/**
 * The worker thread's nice value (Linux, that thread only): when it shares a core with the event
 * loop, the scheduler lets the loop run first instead of handing the checkpoint whole time slices.
 */
const WORKER_NICE = 10;

/**
 * The worker's code, run with `eval` so that it needs no file of its own next to the bundle. It
 * opens its own connection to the database file and runs a PASSIVE checkpoint every interval
 * (PASSIVE never waits for and never blocks the main connection's readers or writer). A pass that
 * could not copy every frame (a commit landed meanwhile) is repeated at once, up to three times:
 * when a pass copies every frame, the main connection's next write starts the WAL from its
 * beginning again. That happens when traffic pauses; under steady load a commit nearly always lands
 * during a pass's final sync, and the WAL grows to FALLBACK_AUTOCHECKPOINT pages instead.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
const Database = require(workerData.driver);
try {
  // Linux: this thread's own id, and a lower priority for it alone (never for the process).
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
} catch {}
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
let checkpoints = 0;
function checkpoint() {
  for (let pass = 0; pass < 3; pass++) {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result.log <= 0) return;
    checkpoints++;
    if (result.busy !== 0 || result.checkpointed >= result.log) return;
  }
}
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'stats') {
    parentPort.postMessage({ checkpoints });
    return;
  }
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export interface WalCheckpointStats {
  /** Checkpoint passes that found frames to copy. */
  checkpoints: number;
}

export interface WalCheckpointer {
  /** Resolves once the worker has its connection (rejects if it could not open the file). */
  readonly ready: Promise<void>;
  /** What the worker has done so far (for tests and diagnostics). */
  stats(): Promise<WalCheckpointStats>;
  /** A last checkpoint, then the worker's connection closes and the worker ends. */
  stop(): Promise<void>;
}

/**
 * Moves the copying of WAL checkpoints off the event loop (ADR-23). SQLite checkpoints inside the
 * commit that takes the WAL past 1,000 pages: copying those pages into the database file and
 * syncing it held the event loop ~4 ms every ~150 ms at 1,000 req/s, the largest hold left on the
 * hot path. A worker thread with its own connection copies the frames every `intervalMs` instead,
 * and the main connection checkpoints only at FALLBACK_AUTOCHECKPOINT pages, when little is left
 * to copy. If the worker fails, the main connection goes back to SQLite's default and `onFailure`
 * hears why.
 */
export function startWalCheckpointer(
  sqlite: SQLite.Database,
  intervalMs: number,
  onFailure: (error: Error) => void,
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file: sqlite.name, intervalMs, nice: WORKER_NICE },
  });
  worker.unref();
  let stopping = false;
  let alive = true;
  let statsWaiters: Array<(stats: WalCheckpointStats | null) => void> = [];
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      alive = false;
      for (const waiter of statsWaiters) waiter(null);
      statsWaiters = [];
      resolve();
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: unknown) => {
      if (message === 'ready') {
        // The worker's connection is open: it takes the checkpoints over.
        sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT}`);
        resolve();
        return;
      }
      const waiters = statsWaiters;
      statsWaiters = [];
      for (const waiter of waiters) waiter(message as WalCheckpointStats);
    });
    worker.once('error', (error) => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
      reject(error);
      if (!stopping) onFailure(error);
    });
  });
  ready.catch(() => undefined); // reported through onFailure
  return {
    ready,
    stats: () =>
      new Promise<WalCheckpointStats>((resolve, reject) => {
        if (!alive) {
          reject(new Error('the WAL checkpoint worker has ended'));
          return;
        }
        statsWaiters.push((stats) =>
          stats ? resolve(stats) : reject(new Error('the WAL checkpoint worker has ended')),
        );
        worker.postMessage('stats');
      }),
    stop: async () => {
      stopping = true;
      // Until now the worker did not keep the process alive; while it finishes, it must, or a
      // shutdown awaiting this would end with the event loop empty before its last steps.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
