import type { QueryClient } from '@tanstack/react-query';
import type { DataRouter } from 'react-router';

/**
 * The session has ended: go to the sign-in page and forget every answer held in memory, unless
 * the console is already going there or is there. Logout and a password change navigate to /login
 * themselves, the latter with a notice the sign-in page shows; a second navigation would replace
 * theirs, notice and all. One can come from a call that answers 401, or from the /login route's
 * own session check, while theirs is still loading. The router's live state says where it is
 * going; a component's view of it may be a render behind.
 */
export function leaveForSignIn(router: DataRouter, queryClient: QueryClient): void {
  const { location, navigation } = router.state;
  if (location.pathname === '/login' || navigation.location?.pathname === '/login') return;
  void router.navigate('/login', { replace: true }).then(() => queryClient.clear());
}
