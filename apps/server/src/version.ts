/** The running Switchyard version (replaced at build time by scripts/build.mjs). */
export const VERSION: string = process.env.SWITCHYARD_VERSION ?? '0.1.0';
