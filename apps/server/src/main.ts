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
    // Keep-alive connections close as soon as they are idle (at once, or when their response
    // ends). After SHUTDOWN_TIMEOUT_MS the rest are cut: those calls settle for what they delivered.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      app.log.warn('shutdown timeout reached: closing in-flight connections');
      app.server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    // Last resort if settlements or the final log flush hang (database gone).
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 20_000);
    for (const handle of [idle, cut, timer]) handle.unref();
    try {
      await app.close();
      clearInterval(idle);
      clearTimeout(cut);
      app.log.info('shutdown complete: in-flight calls settled, logs flushed');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  const demo = isDemoRequested(process.argv.slice(2), process.env) ? await startDemo(app) : null;
  // A deep accept queue: thousands of clients may connect at once (Node's default is 511).
  await app.listen({ port: config.port, host: config.host, backlog: 8192 });
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
