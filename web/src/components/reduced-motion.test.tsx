import { screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../test/render';

// A reader whose system asks for reduced motion gets antd's animations over at once (docs/accessibility.md, "Motion").

/** What antd's theme says about motion where a screen renders. */
function Motion() {
  const { token } = theme.useToken();
  return <output>{`dialogs zoom in ${token.motionDurationMid}`}</output>;
}

const plain = window.matchMedia;
/** The system setting as the browser reports it: `reduce` asks for reduced motion. */
const prefer = (reduce: boolean) => {
  window.matchMedia = (query: string) =>
    ({
      ...plain(query),
      matches: reduce && query === '(prefers-reduced-motion: reduce)',
      addEventListener: () => {},
      removeEventListener: () => {},
    }) as MediaQueryList;
};
afterEach(() => {
  window.matchMedia = plain;
});

describe('reduced motion', () => {
  it('shortens antd motion to a hundredth of a second when the system asks for reduced motion', async () => {
    prefer(true);
    render(<Motion />);
    expect(await screen.findByText('dialogs zoom in 0.01s')).toBeTruthy();
  });

  it('keeps it otherwise', async () => {
    prefer(false);
    render(<Motion />);
    expect(await screen.findByText('dialogs zoom in 0.2s')).toBeTruthy();
  });
});
