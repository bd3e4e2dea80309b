import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import ltLT from 'antd/locale/lt_LT';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from './api/query';
import { AlertProvider } from './components/alert';
import { useLanguage } from './i18n';
import { routes } from './routes';

const router = createBrowserRouter(routes);

/**
 * Providers: query cache, antd locale following the UI language (British English: calendars start
 * on Monday, docs/domain.md §10), the modal host, the shared alert.
 */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const language = useLanguage();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={language === 'en' ? enGB : ltLT}
        theme={{ token: { colorPrimary: '#1677ff', borderRadius: 6 } }}
      >
        <AntApp>
          <AlertProvider>
            <RouterProvider router={router} />
          </AlertProvider>
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
