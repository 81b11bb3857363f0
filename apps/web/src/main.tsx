import type { SessionInfo } from '@pathway/contract';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleTheme } from './app/ConsoleTheme';
import { PageErrorBoundary, PageFailure } from './components/PageErrorBoundary';
import { PageLoading } from './components/PageLoading';
import { LoginPage } from './features/auth/LoginPage';
import type { SignInNotice } from './lib/session';
import { fetchSession } from './lib/sessionRequests';

// Most visits start at the sign-in page, so the entry holds only that page (React, the theme, the
// form's MUI parts). The console behind it (router, query cache, route guards, layout, pages) is
// a chunk of its own, loaded when it is wanted: at once for any other address (its guards send
// a visitor without a session to /login, which it then shows itself), or after signing in here.
// bench/sys-bundle.ts measures both downloads (the sign-in route's goal: docs/performance.md).

const root = createRoot(document.getElementById('root')!);

function show(page: ReactNode) {
  root.render(
    <StrictMode>
      <ConsoleTheme>
        <PageErrorBoundary>{page}</PageErrorBoundary>
      </ConsoleTheme>
    </StrictMode>,
  );
}

/** Loads the console where the address bar points, with the session a sign-in just returned. */
async function openConsole(session?: SessionInfo) {
  show(<PageLoading />);
  // Who is signed in is asked now, while the console's chunk loads, not once it has run: its
  // route guard takes this answer as its first check (app/guards.tsx).
  const sessionAnswer = session ? Promise.resolve(session) : fetchSession();
  // Its failure is the guard's to show; heard here too, in case the console itself fails to load.
  sessionAnswer.catch(() => undefined);
  let consoleApp: ReactNode;
  try {
    consoleApp = (await import('./app/ConsoleApp')).startConsole(sessionAnswer);
  } catch (error) {
    // A chunk missing after a deployment, or a dropped connection: offer a reload.
    consoleApp = <PageFailure error={error} />;
  }
  show(consoleApp);
}

/** The console's address after signing in, as the router's /login route does it (replacing /login). */
function enterConsole(session?: SessionInfo) {
  window.history.replaceState(null, '', '/dashboard');
  void openConsole(session);
}

/**
 * /login reloaded after the console sent someone there with a notice (a password change): the
 * router keeps a navigation's state under `usr` in history.state, and showed it again on reload.
 */
function noticeKeptByTheRouter(): string | undefined {
  const state = window.history.state as { usr?: Partial<SignInNotice> | null } | null;
  return state?.usr?.notice;
}

async function start() {
  if (!/^\/login\/?$/.test(window.location.pathname)) return openConsole();
  show(<PageLoading />);
  // Someone already signed in who opens /login goes on to the console (as its /login route does).
  const session = await fetchSession().catch(() => null);
  if (session) enterConsole(session);
  else show(<LoginPage onSignedIn={enterConsole} notice={noticeKeptByTheRouter()} />);
}

void start();
