import { messages, type SessionInfo } from '@pathway/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardKeys, followupKeys, sessionKeys } from '../lib/queryKeys';
import { jsonResponse } from '../test/render';
import { sessionOf } from '../test/sessions';
import { requireSession, sessionChecks } from './guards';
import { createQueryClient } from './queryClient';

const session = sessionOf('basic access');

/** A server whose session is `signedIn` (null: nobody), and the console's cache as startConsole makes it. */
function consoleWith(signedIn: SessionInfo | null) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/session')
      return signedIn
        ? jsonResponse(200, signedIn)
        : jsonResponse(401, { message: messages.session.required });
    // What the figures are does not matter here, only that they were asked for.
    return jsonResponse(404, { message: messages.generic.notFound });
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onSessionEnded: () => undefined });
  const asked = () => fetchMock.mock.calls.map(([url]) => url.split('?')[0]);
  return { queryClient, asked };
}

/** The guard's loader, run for a navigation to `path`. */
function navigateTo(guard: ReturnType<typeof requireSession>, path: string) {
  return guard({ request: new Request(`http://localhost${path}`), params: {}, context: undefined });
}

afterEach(() => vi.unstubAllGlobals());

describe('the route guard', () => {
  it("asks for the dashboard's figures once it knows who is signed in, before any page is drawn", async () => {
    const { queryClient, asked } = consoleWith(session);
    const guard = requireSession(queryClient, sessionChecks(queryClient));
    await expect(navigateTo(guard, '/dashboard')).resolves.toBeNull();
    expect(asked()).toEqual(['/api/session', '/api/dashboard', '/api/followup/counts']);
    // Under the keys the page reads, so the page finds them there (or on their way).
    expect(queryClient.getQueryState(dashboardKeys.all)).toBeDefined();
    expect(queryClient.getQueryState(followupKeys.counts())).toBeDefined();
  });

  it('asks for the break-glass card ahead too, only of an admin who may read the audit trail', async () => {
    const { queryClient, asked } = consoleWith(sessionOf('full access'));
    const guard = requireSession(queryClient, sessionChecks(queryClient));
    await navigateTo(guard, '/dashboard');
    expect(asked()).toEqual(['/api/session', '/api/dashboard', '/api/followup/counts', '/api/audit']);
    expect(queryClient.getQueryState(dashboardKeys.breakGlass())).toBeDefined();
    // Basic access (above) asks for the figures alone: the card is not theirs to see.
  });

  it('reads nothing ahead for a page whose reading is audited', async () => {
    const { queryClient, asked } = consoleWith(session);
    const guard = requireSession(queryClient, sessionChecks(queryClient));
    await navigateTo(guard, '/participants');
    await navigateTo(guard, '/followup');
    expect(asked()).toEqual(['/api/session', '/api/session']);
  });

  it('reads nothing when nobody is signed in, and sends them to sign in', async () => {
    const { queryClient, asked } = consoleWith(null);
    const guard = requireSession(queryClient, sessionChecks(queryClient));
    const answer = await navigateTo(guard, '/dashboard').catch((thrown: unknown) => thrown);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).headers.get('location')).toBe('/login');
    expect(asked()).toEqual(['/api/session']);
  });

  it('takes the answer already on its way as its first check, then asks the server each time', async () => {
    const { queryClient, asked } = consoleWith(session);
    const check = sessionChecks(queryClient, Promise.resolve(session));
    await expect(check()).resolves.toEqual(session);
    expect(asked()).toEqual([]);
    // Components read who is signed in from the cache: the first answer is there too.
    expect(queryClient.getQueryData(sessionKeys.all)).toEqual(session);
    await expect(check()).resolves.toEqual(session);
    expect(asked()).toEqual(['/api/session']);
  });
});
