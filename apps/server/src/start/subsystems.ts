import { Lifecycle } from '../lib/lifecycle.ts';

/**
 * The app's subsystems that hold something to close, and (in each registration) what each needs
 * while it runs and closes. Shutdown follows these needs (lib/lifecycle.ts); the money path reads
 * relay → ledger → settlement writer → node instance → databases: the relay's calls finish and
 * their settlements run, the ledger stops retrying, the settlement writer writes its last batch,
 * and only then does this process's node_instances row go, the databases closing last.
 *
 * - `databases` (base): the main and the logs database (start/databases.ts).
 * - `redis`, `bus`, `rate-limiter`, `model-rate-limiter`: shared state (start/shared-state.ts).
 * - `node-instance`, `orphan-sweeper`, `ledger-sweeper`: this process's heartbeat row and the
 *   ledger's upkeep (start/ledger-upkeep.ts).
 * - `settlement-writer`, `log-writer`, `ledger`, `relay`: the relay runtime and its writers
 *   (relay/create-relay-runtime.ts).
 * - `quota-data`, `option-sync`, `channel-monitor`, `task-poller`, `log-cleaner`,
 *   `log-retention`, `log-rollup`: background jobs (start/background-jobs.ts).
 * - `demo-upstream`: the offline mock of `--demo` (demo/demo-mode.ts).
 *
 * Metrics, the option store, repositories and session stores hold nothing to close.
 */
export type SubsystemName =
  | 'databases'
  | 'redis'
  | 'bus'
  | 'rate-limiter'
  | 'model-rate-limiter'
  | 'node-instance'
  | 'orphan-sweeper'
  | 'ledger-sweeper'
  | 'settlement-writer'
  | 'log-writer'
  | 'ledger'
  | 'relay'
  | 'quota-data'
  | 'option-sync'
  | 'channel-monitor'
  | 'task-poller'
  | 'log-cleaner'
  | 'log-retention'
  | 'log-rollup'
  | 'demo-upstream';

export type AppLifecycle = Lifecycle<SubsystemName>;

/**
 * A new app lifecycle. LIFECYCLE_REVERSE_REGISTRATIONS=true (a test hook, read here only) keeps
 * the registrations in reverse order: test/crash/shutdown-order.test.ts shows that the close
 * order, and the final settlement flush, do not change.
 */
export function createAppLifecycle(env: NodeJS.ProcessEnv = process.env): AppLifecycle {
  return new Lifecycle<SubsystemName>({
    reverseRegistrations: env.LIFECYCLE_REVERSE_REGISTRATIONS === 'true',
  });
}
