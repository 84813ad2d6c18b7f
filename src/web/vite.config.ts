import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../../dist/web', import.meta.url));
/** `npx vite --config src/web/vite.config.ts` proxies the API of a running `npm start` (ESCUCHA_API, default :3000). */
const api = process.env.ESCUCHA_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    // Maps are written for debugging from the build folder but not linked from the scripts; the
    // server does not serve them in production (src/http/web-app.ts).
    sourcemap: 'hidden',
    target: 'es2022',
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/graphql': { target: api, changeOrigin: false },
      '/api': { target: api, changeOrigin: false },
      '/v1': { target: api, changeOrigin: false },
    },
  },
});
