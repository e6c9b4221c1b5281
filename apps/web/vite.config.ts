import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const serverTarget = process.env.SWITCHYARD_DEV_SERVER ?? 'http://127.0.0.1:3000';
const proxied = { target: serverTarget, changeOrigin: false };

export default defineConfig({
  root,
  plugins: [react()],
  resolve: { conditions: ['source'] },
  define: {
    __APP_VERSION__: JSON.stringify(packageJson.version),
  },
  server: {
    proxy: {
      '/api': proxied,
      '/v1': proxied,
      '/pg': proxied,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The warning limit counts minified (not gzip) bytes; the antd vendor chunk is ~1.3 MB minified
    // and ~400 kB gzip, which is under the 600 kB gzip budget.
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'vendor-antd',
              test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@emotion|dayjs|stylis)[\\/]/,
              priority: 20,
            },
            {
              name: 'vendor-react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
