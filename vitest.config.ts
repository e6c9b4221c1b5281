import { defineConfig } from 'vitest/config';

/**
 * One runner for the whole repository. Server integration tests run once per database
 * (SQLite, PostgreSQL, MariaDB); each run fails loudly if its server is unreachable. The
 * cross-protocol tests (test/protocols: SDK clients against converted upstreams) exercise no
 * database-specific code beyond what test/relay covers, so they run on SQLite only.
 */
const DATABASE_AGNOSTIC = ['apps/server/test/protocols/**'];

const serverProject = (name: string, database: string) => ({
  resolve: { conditions: ['source'] },
  test: {
    name,
    include: ['apps/server/test/**/*.test.ts'],
    exclude: database === 'sqlite' ? [] : DATABASE_AGNOSTIC,
    environment: 'node',
    env: { TEST_DB: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

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
        },
      },
      serverProject('server-sqlite', 'sqlite'),
      serverProject('server-postgres', 'postgres'),
      serverProject('server-mysql', 'mysql'),
      'apps/web/vitest.config.ts',
      'apps/web/vitest.e2e.config.ts',
    ],
  },
});
