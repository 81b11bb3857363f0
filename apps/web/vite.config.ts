import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

/** The API server the dev server forwards to (`npm start` listens on 8080 by default). */
const apiTarget = process.env.PATHWAY_API_URL ?? 'http://localhost:8080';
const toServer: ProxyOptions = { target: apiTarget };

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': toServer,
      // GET /login is the console's sign-in page; only the POST belongs to the server.
      '/login': { ...toServer, bypass: (req) => (req.method === 'GET' ? req.url : undefined) },
      '/logout': toServer,
      '/companion': toServer,
      '/media': toServer,
      '/thumbs': toServer,
      '/healthz': toServer,
      '/readyz': toServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which files each route loads (read by the bundle-size benchmark).
    manifest: true,
    rollupOptions: {
      treeshake: {
        // Emotion imports this CommonJS package only for `withTheme`, which nothing here uses; as
        // CommonJS it would be kept for its "side effects" (1.1 KB gzipped of the sign-in page).
        moduleSideEffects: (id) => !/node_modules[\\/]hoist-non-react-statics[\\/]/.test(id),
      },
      output: {
        // React and the router change far less often than the console: files of their own stay
        // cached across releases. The router has its own because the sign-in page loads without
        // it (src/main.tsx). Everything else is split by use, so a page's libraries (charts, data
        // grid) load with that page only.
        manualChunks(id) {
          if (/node_modules[\\/]react-router[\\/]/.test(id)) return 'vendor-router';
          return /node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id) ? 'vendor-react' : undefined;
        },
      },
    },
  },
});
