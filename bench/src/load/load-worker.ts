/**
 * The load-generator process (forked by the runner, pinned away from the gateways when possible):
 * runs one job at a time from IPC messages and answers with its result, so autocannon, the
 * fixed-rate client and the stream clients never share an event loop with the process under test.
 */
import { runPaced, runSaturation } from './autocannon-load.ts';
import type { LoadJob, LoadResult } from './load-jobs.ts';
import { runOpenLoop } from './open-loop-load.ts';
import { runConcurrent, runStreamRate } from './stream-load.ts';

function run(job: LoadJob): Promise<LoadResult> {
  switch (job.kind) {
    case 'paced':
      return job.pacer === 'autocannon' ? runPaced(job) : runOpenLoop(job);
    case 'saturate':
      return runSaturation(job);
    case 'streams':
      return runStreamRate(job);
    case 'concurrent':
      return runConcurrent(job);
  }
}

if (!process.send) {
  process.stderr.write('load-worker.ts runs as a child of run-bench.ts (IPC)\n');
  process.exit(2);
}

process.on('message', (message: { id: number; job: LoadJob }) => {
  run(message.job).then(
    (result) => process.send!({ id: message.id, result }),
    (error: unknown) =>
      process.send!({
        id: message.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
