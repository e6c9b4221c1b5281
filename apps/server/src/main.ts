import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/env.ts';
import { isDemoRequested, startDemo } from './demo/demo-mode.ts';

/** Entry point: read the environment, build the app, listen, and shut down gracefully. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`switchyard: invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp({ config });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  const demo = isDemoRequested(process.argv.slice(2), process.env) ? await startDemo(app) : null;
  await app.listen({ port: config.port, host: config.host });
  if (demo) {
    app.log.warn(
      `demo mode: channel #${demo.channelId} answers from the offline mock upstream at ${demo.url} ` +
        `(canned replies, not a real AI). Sign in at http://localhost:${config.port}/login as root / 123456 ` +
        '(change the password) and open the playground.',
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `switchyard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
