import type { Language } from '@rodmenys/contract';
import { type RenderResult, render as renderDom } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/query';
import { changeLanguage } from '../i18n';
import { AppProviders } from '../providers';

export interface RenderOptions {
  /** The UI language for this render (default: Lithuanian, the app's default). */
  language?: Language;
  /** The address the component is shown at (default `/`). */
  route?: string;
}

/**
 * Renders a component as the app shows it: inside the app's own providers (query
 * cache, antd locale following the language, antd App, shared alert) and a router
 * at `route`, in the given language. Every component test renders through this.
 */
export async function render(ui: ReactNode, options: RenderOptions = {}): Promise<RenderResult> {
  await changeLanguage(options.language ?? 'lt');
  // jsdom draws no animation (no transition ever ends): antd's motion is off, so a dialog that closes is
  // gone, and has told its owner, at once, as it is in a browser once its animation has ended.
  const element = <ConfigProvider theme={{ token: { motion: false } }}>{ui}</ConfigProvider>;
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [options.route ?? '/'] });
  return renderDom(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}
