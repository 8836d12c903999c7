import type { ReactNode } from 'react';

/**
 * A table's box, scrolling sideways on a narrow screen: a named region that takes the keyboard focus, so a keyboard
 * user can scroll it with the arrow keys too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
