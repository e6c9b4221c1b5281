import { defineConfig } from 'vitest/config';

/**
 * One runner for the whole repository. Server integration tests run once per database
 * (SQLite, PostgreSQL, MariaDB); each run fails loudly if its server is unreachable. The
 * cross-protocol tests (test/protocols: SDK clients against converted upstreams) exercise no
 * database-specific code beyond what test/relay covers, so they run on SQLite only, as does the
 * log export's streaming of a large table (batches, back-pressure, a client leaving), whose SQL is
 * its reader's (log-keyset-reader.test.ts, on every database); test/sqlite holds code that only
 * SQLite runs (its ledger's prepared statements).
 */
const SQLITE_ONLY = [
  'apps/server/test/protocols/**',
  'apps/server/test/sqlite/**',
  'apps/server/test/console/logs-export-stream.test.ts',
];
/** test/routines holds code that only PostgreSQL and MySQL run (their settlement batches). */
const SERVER_DATABASES_ONLY = ['apps/server/test/routines/**'];
/** test/mysql holds code that only MySQL runs (its dialect's migration lock). */
const MYSQL_ONLY = ['apps/server/test/mysql/**'];

/**
 * Server test files share one module graph per worker (`isolate: false`): each builds its own app
 * on its own throwaway database and closes it, and the source keeps no per-process state that a
 * test depends on, so a fresh process per file (hundreds of them over the three databases) was
 * only start-up time. The security tests wrap Fastify with `vi.mock` to list every route; a
 * mocked module must not leak into other files, so they run isolated.
 */
const MOCKS_MODULES = ['apps/server/test/security/**'];

/**
 * The server projects' global setups: the server bundle that tests starting the server as a
 * process run (half the CPU of tsx), and on PostgreSQL the migrated database `buildTestApp`
 * copies instead of migrating one per app.
 */
const SERVER_SETUPS = [
  'apps/server/test/support/server-bundle-setup.ts',
  'apps/server/test/support/migrated-template-setup.ts',
];

const serverProject = (name: string, database: string, isolated: boolean) => ({
  resolve: { conditions: ['source'] },
  test: {
    name: isolated ? `${name}-isolated` : name,
    include: isolated ? MOCKS_MODULES.map((glob) => `${glob}/*.test.ts`) : ['apps/server/test/**/*.test.ts'],
    exclude: [
      ...(database === 'sqlite' ? SERVER_DATABASES_ONLY : SQLITE_ONLY),
      ...(database === 'mysql' ? [] : MYSQL_ONLY),
      ...(isolated ? [] : MOCKS_MODULES),
    ],
    isolate: isolated,
    globalSetup: isolated ? [] : SERVER_SETUPS,
    environment: 'node',
    env: { TEST_DB: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const serverProjects = (name: string, database: string) => [
  serverProject(name, database, false),
  serverProject(name, database, true),
];

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine,
    // where most test time is spent waiting on databases, sockets and child processes.
    maxWorkers: 2,
    projects: [
      {
        resolve: { conditions: ['source'] },
        test: {
          name: 'unit',
          include: [
            'packages/**/src/**/*.test.ts',
            'tools/**/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'bench/src/**/*.test.ts',
          ],
          environment: 'node',
          // Pure functions and self-contained fixtures: no file depends on a fresh module graph.
          isolate: false,
        },
      },
      ...serverProjects('server-sqlite', 'sqlite'),
      ...serverProjects('server-postgres', 'postgres'),
      ...serverProjects('server-mysql', 'mysql'),
      'apps/web/vitest.config.ts',
      'apps/web/vitest.e2e.config.ts',
    ],
  },
});
