import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

/** The API server the dev server forwards to (`npm start` listens on 8080 by default). */
const apiTarget = process.env.PATHWAY_API_URL ?? 'http://localhost:8080';
const toServer: ProxyOptions = { target: apiTarget };

/**
 * MUI X's data grid lists every MUI component any grid edition may draw (its "base slots") in one
 * module, so the free DataGrid bundles some it never renders: the tabs and toggle buttons of the
 * Premium panels, and a switch, all in the participant list's first download, whose size goal
 * bench/sys-bundle.ts measures (docs/performance.md). Here that module gets an empty stand-in for
 * them. The build fails if the installed grid starts using one of those slots, so an upgrade cannot
 * silently draw a stand-in.
 *
 * The grid also draws an Autocomplete, but only in the filter panel's "is any of" inputs, which the
 * Participants grid never offers (its one filterable column has the "is" operator only). That
 * slot gets the real Autocomplete loaded when first drawn, not in the list's first download, so it
 * still works if a grid offers those inputs.
 */
function dataGridUnusedSlots(): Plugin {
  const gridMaterial = /@mui[\\/]x-data-grid[\\/]esm[\\/]material[\\/]index\.js$/;
  const unused: Record<string, string> = {
    '@mui/material/Tabs': 'baseTabs',
    '@mui/material/Tab': 'baseTabs',
    '@mui/material/ToggleButton': 'baseToggleButton',
    '@mui/material/Switch': 'baseSwitch',
  };
  const standIn = '\0data-grid-unused-slot';
  const loadedWhenDrawn: Record<string, string> = {
    '@mui/material/Autocomplete': '\0data-grid-lazy-autocomplete',
  };
  return {
    name: 'data-grid-unused-slots',
    enforce: 'pre',
    apply: 'build',
    buildStart() {
      const esm = path.join(path.dirname(createRequire(import.meta.url).resolve('@mui/x-data-grid')), 'esm');
      const slots = new Set(Object.values(unused));
      for (const entry of readdirSync(esm, { recursive: true, encoding: 'utf8' })) {
        const file = path.join(esm, entry);
        if (!file.endsWith('.js') || gridMaterial.test(file)) continue;
        const code = readFileSync(file, 'utf8');
        for (const slot of slots) {
          if (new RegExp(`\\b${slot}\\b`).test(code)) {
            this.error(`@mui/x-data-grid now uses ${slot} (${entry}): remove it from dataGridUnusedSlots`);
          }
        }
      }
    },
    resolveId(source, importer) {
      if (!importer || !gridMaterial.test(importer)) return null;
      if (source in unused) return standIn;
      return loadedWhenDrawn[source] ?? null;
    },
    load(id) {
      if (id === standIn) {
        return "export default function UnusedGridSlot() { throw new Error('This data grid slot is not bundled (vite.config.ts)'); }";
      }
      const source = Object.keys(loadedWhenDrawn).find((key) => loadedWhenDrawn[key] === id);
      return source === undefined ? null : loadedWhenDrawnModule(source);
    },
  };
}

/**
 * A module whose default export is `source`'s default export (the same props, the ref included),
 * drawn once its own chunk has loaded, which starts when it is first rendered.
 */
function loadedWhenDrawnModule(source: string): string {
  return [
    "import { Suspense, createElement, forwardRef, lazy } from 'react';",
    `const Component = lazy(() => import(${JSON.stringify(source)}));`,
    'export default forwardRef(function LoadedWhenDrawn(props, ref) {',
    '  return createElement(Suspense, { fallback: null }, createElement(Component, { ...props, ref }));',
    '});',
  ].join('\n');
}

/**
 * MUI's Popper brings Popper.js (about 8 KB gzipped), yet it draws nothing until a tooltip, a menu of
 * the data grid or one of its panels opens. The Tooltip (in the signed-in shell of every page) and
 * the grid render one closed from the start, so it would be part of every page's first download:
 * here those two get it loaded when first rendered, in a chunk of its own fetched while the page
 * shows (a tooltip opens after a delay far longer). Other importers (Autocomplete, the date
 * pickers) are loaded on demand already and keep the real one.
 */
function popperLoadedWhenDrawn(): Plugin {
  const importers = [
    /@mui[\\/]material[\\/]esm[\\/]Tooltip[\\/]Tooltip\.js$/,
    /@mui[\\/]x-data-grid[\\/]esm[\\/]material[\\/]index\.js$/,
  ];
  const sources = new Set(['../Popper/index.js', '@mui/material/Popper']);
  const lazyPopper = '\0popper-loaded-when-drawn';
  return {
    name: 'popper-loaded-when-drawn',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer) {
      if (!importer || !sources.has(source) || !importers.some((re) => re.test(importer))) return null;
      return lazyPopper;
    },
    load(id) {
      return id === lazyPopper ? loadedWhenDrawnModule('@mui/material/Popper') : null;
    },
  };
}

export default defineConfig({
  plugins: [react(), dataGridUnusedSlots(), popperLoadedWhenDrawn()],
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
      // zod's sources put comments where Rollup reads annotations; Rollup drops those comments and
      // warns on every build. Nothing is wrong with the output, so a user is not told about them.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && /node_modules[\\/]zod[\\/]/.test(warning.id ?? ''))
          return;
        warn(warning);
      },
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
