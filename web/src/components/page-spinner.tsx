import { Spin } from 'antd';
import { type ReactNode, Suspense } from 'react';

/** A screen's lazy chunk: the page spinner until it has loaded (the shell's content and the bare pages alike). */
export function PageSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="page-spinner">
          <Spin size="large" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
