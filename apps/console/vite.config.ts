import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const contractSrc = fileURLToPath(new URL('../../libs/contract/src/', import.meta.url));

/**
 * The admin console: a single-page app the gateway serves at /console from apps/console/dist.
 * Asset names carry a content hash so the gateway may cache them for a year.
 */
export default defineConfig({
  root,
  base: '/console/',
  plugins: [react()],
  resolve: {
    // The REST contract shared with the gateway (libs/contract). Pages import its types and its
    // Zod-free `rules` entry; the Zod schemas stay out of the bundle.
    alias: [
      { find: /^@toolgate\/contract\/rules$/, replacement: `${contractSrc}rules/index.ts` },
      { find: /^@toolgate\/contract$/, replacement: `${contractSrc}index.ts` },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
    assetsDir: 'assets',
  },
  server: {
    // `npx vite --config apps/console/vite.config.ts` against a gateway on :3000.
    proxy: { '/v1': 'http://127.0.0.1:3000' },
  },
});
