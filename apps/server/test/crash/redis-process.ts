import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { eventually } from './server-process.ts';

/**
 * A private redis-server child on its own port (never the shared 6379 one): no persistence, so a
 * restart starts empty, like a Redis that came back after an outage.
 */
export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export function redisProcess(port: number): RedisProcess {
  let child: ChildProcess | null = null;
  const url = `redis://127.0.0.1:${port}/0`;
  const ping = async () => {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } finally {
      client.disconnect();
    }
  };
  return {
    url,
    async start() {
      const started = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
        ],
        { stdio: 'ignore' },
      );
      child = started;
      await eventually(`redis-server on port ${port}`, ping, 10_000);
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
}
