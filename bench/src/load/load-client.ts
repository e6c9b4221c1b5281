/** The runner's side of the load-generator process: start it, send jobs, await results. */
import { fileURLToPath } from 'node:url';
import { type SpawnedProcess, spawnProcess } from '../processes.ts';
import type { LoadJob, LoadResult } from './load-jobs.ts';

export interface LoadClient {
  process: SpawnedProcess;
  run(job: LoadJob): Promise<LoadResult>;
}

export async function startLoadClient(cpus: string | null): Promise<LoadClient> {
  const entry = fileURLToPath(new URL('./load-worker.ts', import.meta.url));
  const worker = spawnProcess('load generator', process.execPath, ['--import', 'tsx', entry], {
    cpus,
    ipc: true,
  });
  const pending = new Map<
    number,
    { resolve: (result: LoadResult) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  await Promise.race([
    new Promise<void>((resolve) => {
      worker.child.on(
        'message',
        (message: { ready?: boolean; id?: number; result?: LoadResult; error?: string }) => {
          if (message.ready) resolve();
          if (message.id === undefined) return;
          const waiter = pending.get(message.id);
          pending.delete(message.id);
          if (message.error !== undefined) waiter?.reject(new Error(`load generator: ${message.error}`));
          else waiter?.resolve(message.result!);
        },
      );
    }),
    worker.exited,
  ]);
  worker.exited.catch((error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  return {
    process: worker,
    run(job) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.child.send({ id, job });
      });
    },
  };
}
