import { mkdirSync } from 'node:fs';
import { beforeEach } from 'vitest';
import { openPages } from './browser';
import { FAILURE_DIR } from './paths';

/** Characters of each page's text printed with a failure. */
const TEXT_LIMIT = 2_000;

/**
 * When an end-to-end test fails, reports what each of its open pages showed: the address and the
 * start of the visible text on stderr (kept in CI's log), and a screenshot in artifacts/failures.
 * A failure that happens only on a loaded CI machine can then be read afterwards.
 */
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    mkdirSync(FAILURE_DIR, { recursive: true });
    const name = `${task.file?.name ?? 'e2e'}-${task.name}`.replace(/[^\w.-]+/g, '_').slice(0, 120);
    let index = 0;
    for (const page of openPages) {
      index += 1;
      try {
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the test saw.
        const text = await page.locator('body').innerText({ timeout: 5_000 });
        process.stderr.write(
          `\n[e2e failure] ${task.name}, page ${index}: ${page.url()}\n${text.slice(0, TEXT_LIMIT)}\n`,
        );
        await page.screenshot({ path: `${FAILURE_DIR}/${name}-${index}.png`, timeout: 10_000 });
      } catch (error) {
        process.stderr.write(`\n[e2e failure] page ${index} could not be read: ${String(error)}\n`);
      }
    }
  });
});
