import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from './api/query';
import { AppProviders } from './providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);

/** The app: its providers (providers.tsx) around the route table. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
