import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

/** Component tests of the console (jsdom). The browser tests are e2e/, run by Playwright. */
export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Typing through user-event and first imports of lazy pages are slow on a busy 2-core machine.
    testTimeout: 60_000,
  },
});
