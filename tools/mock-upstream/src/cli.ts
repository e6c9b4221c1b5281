#!/usr/bin/env -S node --import tsx
/**
 * Runs the mock upstream as a process:
 * `node --import tsx tools/mock-upstream/src/cli.ts --port 4010 [--host 0.0.0.0] [--record-limit 0]`.
 * Prints the base URL, then serves until SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startMockUpstream } from './mock-upstream-server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'record-limit': { type: 'string' },
  },
});

const recordLimit = values['record-limit'];
const mock = await startMockUpstream({
  port: Number(values.port),
  host: values.host,
  ...(recordLimit === undefined ? {} : { recordLimit: Number(recordLimit) }),
});
process.stdout.write(`Switchyard mock upstream listening on ${mock.url}\n`);

const stop = (): void => {
  mock.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
