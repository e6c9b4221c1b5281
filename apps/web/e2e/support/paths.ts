import { fileURLToPath } from 'node:url';

/** The repository root (apps/web/e2e/support → ../../../..). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** CI artefacts (gitignored). */
export const ARTIFACTS_DIR = `${REPO_ROOT}artifacts`;
/** Where the end-to-end tests save their screenshots. */
export const SCREENSHOT_DIR = `${ARTIFACTS_DIR}/screenshots`;
/** What a failed end-to-end test left on screen (failure-report.ts). */
export const FAILURE_DIR = `${ARTIFACTS_DIR}/failures`;
