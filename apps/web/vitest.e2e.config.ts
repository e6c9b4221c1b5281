import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/**
 * End-to-end tests: real Chromium (playwright-core, Debian's /usr/bin/chromium) against the real
 * server started like `npm start` does, with a fresh SQLite database. The global setup builds
 * (only when dist is missing or E2E_BUILD=1), starts the server and provides its URL as `baseUrl`.
 * The suites run one after another from one file (e2e/console.e2e.ts): they share one server and
 * one database.
 */
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/console.e2e.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    setupFiles: ['./e2e/support/failure-report.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
