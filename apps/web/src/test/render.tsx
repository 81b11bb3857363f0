import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AppProviders } from '../app/providers';

/** Renders with the console's theme and a fresh query cache (no retries, so failures show at once). */
export function renderWithProviders(ui: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return { queryClient, ...render(<AppProviders queryClient={queryClient}>{ui}</AppProviders>) };
}

/** A fetch stand-in answering one JSON response, recording what it was asked. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
