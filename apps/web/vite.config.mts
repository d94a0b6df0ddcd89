import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const sdk = fileURLToPath(new URL('../../libs/sdk/src/index.ts', import.meta.url));

// The page is served by the gateway from apps/web/dist (`npx vite build apps/web`, run by npm start and
// npm test); the SDK is bundled from its sources. Its Node-only imports (node:fs for paths) stay
// dynamic imports the browser never reaches.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: { '@vj/sdk': sdk } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: { external: [/^node:/] },
  },
  server: { proxy: { '/v1': 'http://localhost:3000' } },
});
