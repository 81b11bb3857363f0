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
  },
});
