import { defineConfig } from 'vitest/config';

/**
 * One runner for the whole repository. Server integration tests run once per database
 * (SQLite, PostgreSQL, MariaDB); each run fails loudly if its server is unreachable.
 */
const serverProject = (name: string, database: string) => ({
  resolve: { conditions: ['source'] },
  test: {
    name,
    include: ['apps/server/test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    projects: [
      {
        resolve: { conditions: ['source'] },
        test: {
          name: 'unit',
          include: [
            'packages/**/src/**/*.test.ts',
            'tools/**/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
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
