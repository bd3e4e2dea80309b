import { type ReactNode, useEffect, useRef } from 'react';

const SCROLLERS = '.ant-table-content, .ant-table-body, .ant-table-tbody-virtual-holder';

/**
 * Makes the scrolling parts of the antd tables inside it reachable by Tab (a named region), so that
 * a keyboard user can scroll a table whose cells hold no button or link (WCAG 2.1.1).
 */
export function FocusableScroll({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  // After every render: the table draws its scrolling parts when its rows arrive.
  useEffect(() => {
    for (const element of ref.current?.querySelectorAll<HTMLElement>(SCROLLERS) ?? []) {
      if (element.getAttribute('aria-label') === label) continue;
      element.tabIndex = 0;
      element.setAttribute('role', 'region');
      element.setAttribute('aria-label', label);
    }
  });
  return <div ref={ref}>{children}</div>;
}
