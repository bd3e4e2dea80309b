// jsdom lacks what antd measures with: matchMedia (responsive grid) and ResizeObserver.

import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

const isBrowser = typeof window !== 'undefined';
// findBy… and waitFor wait up to 10 s: a page's first render under jsdom is slow on a busy machine.
configure({ asyncUtilTimeout: 10_000 });
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
