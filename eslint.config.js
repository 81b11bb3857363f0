// ESLint 9 flat config for the whole repository: `npm run lint`.
// Formatting is Prettier's job (`npm run format:check`), so no stylistic rules here.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Console features do not import each other (shared pieces live in components/ or lib/). One block
// per feature directory, read from disk so a new feature is covered without editing this file.
const FEATURES_DIR = 'apps/web/src/features';
const features = readdirSync(FEATURES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const featureBoundaries = features.map((feature) => {
  const others = features.filter((other) => other !== feature).map(escape);
  return {
    files: [`${FEATURES_DIR}/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // A relative path that walks into another feature's directory (`../devices/api`,
              // `../../features/devices/api`) or any path through `features/<other>`.
              regex: `^\\.{1,2}/(?:\\.\\./)*(?:features/)?(?:${others.join('|')})(?:/|$)`,
              message:
                'Console features do not import each other: move the shared piece to components/ or lib/.',
            },
          ],
        },
      ],
    },
  };
});

// Server modules use each other only through their public entry, `modules/<name>/index.ts`: what
// it exports is what other modules, the app factory, jobs and the CLI may use, so a module's other
// files can change without breaking another. Tests may reach inside (they check the internals).
const MODULES_DIR = 'apps/server/src/modules';
const modules = readdirSync(MODULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const ENTRY_MESSAGE =
  'Import another server module through its entry (modules/<name>/index.js); export what you need from that entry.';

const moduleBoundaries = modules.map((name) => {
  const others = modules.filter((other) => other !== name).map(escape);
  return {
    files: [`${MODULES_DIR}/${name}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // `../<other>/service.js`, `../../<other>/x.js` from a subfolder, `../../modules/<other>/x.js`.
              regex: `^(?:\\.\\./)+(?:modules/)?(?:${others.join('|')})/(?!index\\.js$)`,
              message: ENTRY_MESSAGE,
            },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'data/**',
      'bench/profiles/**',
      'apps/server/drizzle/**',
      // Scratch files (git ignores it too): not in any program, and not the project's code.
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The type checker's own programs (`npm run typecheck`): the contract, the server and the
        // bench in one, the console in the other, and the root's vitest config and the build
        // script's type declarations in a third. A program per package (typescript-eslint's project
        // service) checked the server and the contract again for the bench's and the contract's
        // own: about a tenth more CPU. A file in none of them is an error, not skipped.
        project: [
          './apps/server/tsconfig.typecheck.json',
          './apps/web/tsconfig.json',
          './tsconfig.lint-root.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberately unused (Fastify handler signatures, destructuring to omit a field).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Fastify hooks and route handlers, React event handlers and react-query callbacks accept async
      // functions whose promise is awaited by the framework; only argument positions that drop a
      // promise on the floor (a void-returning callback) would hide an error, and those we keep.
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      // Numbers and booleans in template strings are the normal way to build messages and log lines.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Fastify plugins, hooks and handlers, and react-router loaders, are async by the framework's
      // contract (a plugin is `async (app) => {}` even when it awaits nothing); the rule would force a
      // `done` callback or a non-async wrapper that changes nothing.
      '@typescript-eslint/require-await': 'off',
      // React Router's loaders redirect by throwing a Response, its documented API.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'lib', name: 'Response' }] }],
    },
  },
  {
    // Tests read JSON answers (`res.json()`, `JSON.parse`, Playwright's `response.json()`, all `any`) and
    // assert their shape with expect: typing each would copy the contract into every test, and a wrong
    // shape fails the assertion anyway. Production code keeps these rules.
    files: ['**/*.test.{ts,tsx}', '**/*.spec.ts', 'apps/server/test/**/*.ts', 'apps/web/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The sign-in route's download (its budget is in bench/sys-bundle.ts) is the
    // entry and what it imports: the router, react-query, the data grid and the session hooks load
    // with the console chunk after sign-in. Type-only imports cost nothing and stay allowed.
    files: [
      'apps/web/src/main.tsx',
      'apps/web/src/app/ConsoleTheme.tsx',
      'apps/web/src/app/theme.ts',
      'apps/web/src/features/auth/{LoginPage,LoginForm,OutlinedField}.tsx',
      'apps/web/src/features/auth/useRequest.ts',
      'apps/web/src/lib/{api,sessionRequests}.ts',
      'apps/web/src/components/{Logo,SiteFooter,ExternalLink,PageErrorBoundary,PageLoading}.tsx',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(react-router|@tanstack/|@mui/x-)|/lib/session$|^\\./session$',
              allowTypeImports: true,
              message:
                'The sign-in page loads before the console: keep the router, react-query, MUI X and lib/session out of it (the console chunk loads them).',
            },
          ],
        },
      ],
    },
  },
  {
    // Server: modules reach plugins and lib, never the reverse, so a plugin or a helper never depends on
    // one domain's code. Nor does the app's context, which every module imports: a module there would
    // put them all in one import cycle (its interfaces live in lib/).
    files: ['apps/server/src/plugins/**/*.ts', 'apps/server/src/lib/**/*.ts', 'apps/server/src/context.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.{1,2}/(?:.*/)?modules(?:/|$)',
              message:
                'plugins/, lib/ and context.ts do not import from modules/: move the shared piece (or its interface) to lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The rest of the server (app factory, runtime, jobs, CLI, demo) reaches modules through their
    // entries too; plugins/ and lib/ do not reach them at all (above).
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      `${MODULES_DIR}/**`,
      'apps/server/src/plugins/**',
      'apps/server/src/lib/**',
      'apps/server/src/context.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(?:^|/)modules/[^/]+/(?!index\\.js$)', message: ENTRY_MESSAGE }] },
      ],
    },
  },
  {
    // The server's code reads a raw statement's rows with db/rows.ts's rowsReader, which checks each
    // column's type, never with rowsOf's unchecked cast (kept for tests and benchmarks). A rule of
    // its own name, so the module boundaries' no-restricted-imports still apply.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(?:^|/)db/rows\\.js$',
              importNames: ['rowsOf'],
              message: 'Read raw rows with rowsReader (db/rows.ts), which checks each column.',
            },
          ],
        },
      ],
    },
  },
  ...moduleBoundaries,
  ...featureBoundaries,
  {
    // Plain JavaScript (this file, scripts/) is not part of any tsconfig: no type-aware rules.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
