/**
 * Micro-benchmark of a whole-answer upstream call's timeouts (ADR-32): the CPU this process spends
 * per non-stream chat call through `UpstreamClient.fetchAnswer`, with the first-byte and idle
 * timeouts kept by the client's coarse deadlines (as the relay does) against undici's own timers
 * per request (as before ADR-32: two fast timers per call beside the pool's keep-alive timer).
 * The mock upstream runs in its own process on CPU 0; run this one on CPU 1 so the two do not
 * share a core. The two ways alternate in windows of WINDOW_MS after a warm-up, and the summary
 * gives each window pair's ratio and their median.
 *
 *   taskset -c 1 node --conditions=source --import tsx bench/src/micro/upstream-timeouts-bench.ts
 */
import { RelayAbort } from '../../../apps/server/src/relay/relay-abort.ts';
import { BUFFER_PASSED_THROUGH } from '../../../apps/server/src/relay/stages/answer-shape.ts';
import { UpstreamClient } from '../../../apps/server/src/relay/upstream-client.ts';
import { hasTaskset, stopAll } from '../processes.ts';
import { startMock, type Target } from '../targets.ts';

const CONCURRENCY = Number(process.env.MICRO_CONCURRENCY ?? 32);
const WINDOW_MS = Number(process.env.MICRO_WINDOW_MS ?? 3_000);
const PAIRS = Number(process.env.MICRO_PAIRS ?? 8);

const body = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Write one short sentence about load testing an AI gateway.' }],
  max_tokens: 64,
});

/** The relay's defaults (RELAY_TIMEOUT 300 s, STREAMING_TIMEOUT 120 s), kept either way. */
const settings = {
  relayTimeoutSeconds: 300,
  streamingTimeoutSeconds: 120,
  upstreamConnectTimeoutSeconds: 10,
};
const clients = {
  deadlines: new UpstreamClient(settings),
  undici: new UpstreamClient({ ...settings, undiciTimers: true }),
};

async function window(mock: Target, undiciTimers: boolean, ms: number): Promise<number> {
  const client = undiciTimers ? clients.undici : clients.deadlines;
  const until = performance.now() + ms;
  let calls = 0;
  const cpuBefore = process.cpuUsage();
  const request = {
    url: `${mock.url}/v1/chat/completions`,
    method: 'POST' as const,
    headers: mock.headers,
    body,
    upstreamModel: 'gpt-4o-mini',
    streamUsageForced: false,
    warnings: [],
  };
  const loop = async () => {
    while (performance.now() < until) {
      const answer = await client.fetchAnswer(request, new RelayAbort(), undefined, BUFFER_PASSED_THROUGH);
      if (answer.statusCode !== 200) throw new Error(`upstream answered ${answer.statusCode}`);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const cpu = process.cpuUsage(cpuBefore);
  return (cpu.user + cpu.system) / calls;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const mock = await startMock(hasTaskset ? '0' : null);
  try {
    await window(mock, false, 5_000);
    await window(mock, true, 5_000);
    const ratios: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      // The order alternates, so a drifting machine favours neither.
      const first = pair % 2 === 0;
      const a = await window(mock, !first, WINDOW_MS);
      const b = await window(mock, first, WINDOW_MS);
      const [deadlines, undici] = first ? [a, b] : [b, a];
      ratios.push(deadlines / undici);
      process.stdout.write(
        `pair ${pair + 1}: deadlines ${deadlines.toFixed(1)} µs/call, undici's timers ${undici.toFixed(1)} µs/call, ratio ${(deadlines / undici).toFixed(3)}\n`,
      );
    }
    process.stdout.write(
      `deadlines ÷ undici's timers, median of ${PAIRS} pairs: ${median(ratios).toFixed(3)}\n`,
    );
  } finally {
    await Promise.all([clients.deadlines.close(), clients.undici.close()]);
    await mock.stop();
    await stopAll();
  }
}

await main();
