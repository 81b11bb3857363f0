import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/queryClient';
import { createAppRouter } from './app/router';

const queryClient = createQueryClient({
  onUnauthorized: () => {
    // The session ended while a page was open: sign in again, and keep nothing of what was shown.
    void router.navigate('/login', { replace: true }).then(() => queryClient.clear());
  },
});
const router = createAppRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
