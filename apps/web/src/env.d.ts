/// <reference types="vite/client" />

/** The console's package version, injected by Vite's `define`. */
declare const __APP_VERSION__: string;
