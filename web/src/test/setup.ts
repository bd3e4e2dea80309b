// jsdom lacks what antd measures with: matchMedia (responsive grid) and ResizeObserver.

import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

const isBrowser = typeof window !== 'undefined';
if (isBrowser && !window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (isBrowser && !window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
afterEach(() => {
  if (!isBrowser) return;
  cleanup();
  localStorage.clear();
});
