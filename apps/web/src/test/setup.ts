import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Lazy pages are compiled on their first import, which takes more than the default second on a
// busy machine (docs/testing.md).
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
