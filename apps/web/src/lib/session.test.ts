import { ROLES, apiRoutes, can, type RouteRef, type SessionInfo } from '@pathway/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { sessionOf } from '../test/sessions';
import { SESSION_KEY, canCall, useCanCall, useFieldAccess } from './session';

const routes: [string, RouteRef][] = Object.entries(apiRoutes).flatMap(([domain, group]) =>
  Object.entries(group as Record<string, RouteRef>).map(([name, route]): [string, RouteRef] => [
    `${domain}.${name}`,
    route,
  ]),
);

/** Renders a hook inside the console's query cache, with the session the route guard would have learnt. */
function renderAs<T>(session: SessionInfo | null, hook: () => T): T {
  const queryClient = new QueryClient();
  queryClient.setQueryData(SESSION_KEY, session);
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: queryClient }, children);
  return renderHook(hook, { wrapper }).result.current;
}

describe('canCall', () => {
  it("answers every route of the table by its entry's access and permission, for every role", () => {
    expect(routes.length).toBeGreaterThan(50);
    for (const role of ROLES) {
      for (const [name, route] of routes) {
        const expected =
          route.access === 'public' || route.permission === undefined || can(role, route.permission);
        expect(canCall(role, route), `${name} as ${role}`).toBe(expected);
      }
    }
  });

  it("offers Delete participant to the roles the server lets delete, by the delete route's own permission", () => {
    // The grid once showed Delete by the permission to see names while the server checked another.
    const { permission } = apiRoutes.participants.remove;
    expect(permission).toBeDefined();
    expect(permission).not.toBe(apiRoutes.participants.referral.permission);
    for (const role of ROLES)
      expect(canCall(role, apiRoutes.participants.remove)).toBe(can(role, permission!));
    expect(canCall('basic access', apiRoutes.participants.remove)).toBe(false);
    expect(canCall('full access', apiRoutes.participants.remove)).toBe(true);
    expect(canCall('basic access', apiRoutes.participants.list)).toBe(true);
  });

  it('lets nobody signed in call only the public routes, and no admin call a tablet route', () => {
    expect(canCall(undefined, apiRoutes.auth.login)).toBe(true);
    expect(canCall(undefined, apiRoutes.auth.session)).toBe(false);
    expect(canCall(undefined, apiRoutes.dashboard.get)).toBe(false);
    for (const role of ROLES) expect(canCall(role, { access: 'device' })).toBe(false);
    // A path the tablet shares with the console is the console's to call.
    expect(canCall('basic access', apiRoutes.participants.update)).toBe(true);
  });
});

describe('useCanCall and useFieldAccess', () => {
  it("answer for the signed-in admin's role", () => {
    const basic = renderAs(sessionOf('basic access'), () => [useCanCall(), useFieldAccess()] as const);
    expect(basic[0](apiRoutes.admins.list)).toBe(false);
    expect(basic[0](apiRoutes.videoSets.list)).toBe(true);
    expect(basic[1]('identifiable')).toBe(false);
    const full = renderAs(sessionOf('full access'), () => [useCanCall(), useFieldAccess()] as const);
    expect(full[0](apiRoutes.admins.list)).toBe(true);
    expect(full[1]('identifiable')).toBe(true);
    expect(full[1]('deviceAssignment')).toBe(true);
  });

  it('allow nothing but public routes when nobody is signed in', () => {
    const [canCallNow, opens] = renderAs(null, () => [useCanCall(), useFieldAccess()] as const);
    expect(canCallNow(apiRoutes.videoSets.list)).toBe(false);
    expect(canCallNow(apiRoutes.auth.logout)).toBe(true);
    expect(opens('identifiable')).toBe(false);
  });
});
