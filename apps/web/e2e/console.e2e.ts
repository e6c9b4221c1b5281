/**
 * Every browser suite (`suites/*.ts`), one after another in this one file: they share one server
 * and one database. As a single file the project runs beside the other projects' files, on one
 * worker, instead of in a phase of its own after all of them with the second core idle (Vitest
 * runs projects that disable file parallelism last, alone). Run one suite with
 * `npx vitest run --project e2e -t '<its describe name>'`.
 */
import.meta.glob('./suites/*.ts', { eager: true });
