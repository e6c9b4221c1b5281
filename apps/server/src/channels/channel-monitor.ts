import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import { currentBalanceRun, runBalanceUpdate } from './channel-balance.ts';
import { channelHealthOf } from './channel-health-service.ts';
import { channelTestRunnerOf, type TestActor } from './channel-tester-runner.ts';

/** The user the monitor's test log rows are written for (the reference uses user 1). */
const MONITOR_USER_ID = 1;

/**
 * Starts the background channel jobs and returns the function that stops them.
 *
 * - With `timers` (the master node): every CHANNEL_TEST_FREQUENCY minutes, test every channel
 *   with status 1 or 3 (auto disable/enable, no notification; skipped while a run is going); every
 *   CHANNEL_UPDATE_FREQUENCY minutes, update the balances of the enabled channels. Both are off
 *   when their variable is unset or 0. (The reference ran them on every node that set the
 *   variables; here only the master does, so a cluster tests each channel once.)
 * - On every node, stopping waits for a running test or balance run and for scheduled channel
 *   health changes, so nothing writes to a closed database.
 */
export function startChannelMonitor(
  services: AppServices,
  log: FastifyBaseLogger,
  { timers }: { timers: boolean },
): () => Promise<void> {
  const runner = channelTestRunnerOf(services, log);
  const health = channelHealthOf(services, log);
  const intervals: NodeJS.Timeout[] = [];
  const testMinutes = services.config.channelTestFrequencyMinutes;
  const balanceMinutes = services.config.channelUpdateFrequencyMinutes;

  const monitorActor = async (): Promise<TestActor | null> => {
    const user = await services.users.findById(MONITOR_USER_ID);
    return user ? { id: user.id, username: user.username, group: user.group || 'default' } : null;
  };

  if (timers && testMinutes) {
    const timer = setInterval(() => {
      if (runner.running) return;
      monitorActor()
        .then((actor) => {
          if (runner.startAll(actor, { notify: false })) log.info('periodic channel test started');
        })
        .catch((error: unknown) => log.warn({ err: error }, 'periodic channel test failed to start'));
    }, testMinutes * 60_000);
    timer.unref();
    intervals.push(timer);
    log.info({ minutes: testMinutes }, 'periodic channel tests on');
  }
  if (timers && balanceMinutes) {
    const timer = setInterval(() => {
      if (currentBalanceRun(services)) return;
      runBalanceUpdate(services, health, log)
        .then((summary) => log.info(summary, 'periodic channel balance update done'))
        .catch((error: unknown) => log.warn({ err: error }, 'periodic channel balance update failed'));
    }, balanceMinutes * 60_000);
    timer.unref();
    intervals.push(timer);
    log.info({ minutes: balanceMinutes }, 'periodic channel balance updates on');
  }

  return async () => {
    for (const timer of intervals) clearInterval(timer);
    await runner.stop();
    await currentBalanceRun(services)?.catch(() => undefined);
    await health.drain();
  };
}
