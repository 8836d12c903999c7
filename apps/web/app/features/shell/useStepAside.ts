import { type RefObject, useEffect, useState } from 'react';

/** What a visitor uses: a control under the floating button would be hidden or mis-tapped. */
const controls =
  'a[href], button, input, select, textarea, summary, label, [role="button"], [tabindex]:not([tabindex="-1"])';
/** Fields that bring up the on-screen keyboard (or a picker) when they have focus. */
const typingFields =
  'input:not([type="checkbox"]):not([type="radio"]):not([type="button"]):not([type="submit"]), select, textarea, [contenteditable="true"]';
/** Room kept around the button: a control this close is as good as under the thumb. */
const clearancePx = 8;

/**
 * Whether the floating `element` (fixed to the viewport) should step aside: while a field has focus (the on-screen
 * keyboard is up, or a picker), or while any control of the page lies under it or within a few pixels of it (a page's
 * primary button scrolled to the bottom corner, a link in a list). The controls are watched with one
 * IntersectionObserver whose root is shrunk, by a negative margin, to the button's box: no work on scroll, and the
 * page's own controls added later (a route change, a list that grows) are picked up by a MutationObserver.
 * `active` false: the button is not floating (no JavaScript yet, or a wide screen where it sits in the margin).
 */
export function useStepAside(element: RefObject<HTMLElement | null>, active: boolean): boolean {
  const [covering, setCovering] = useState(false);
  const [typing, setTyping] = useState(false);

  useEffect(() => {
    if (!active) return;
    const onFocus = () => {
      const focused = document.activeElement;
      setTyping(focused instanceof HTMLElement && focused.matches(typingFields));
    };
    // Focus leaving a field lands on the next element (or the body) only after focusout: read it a moment later.
    let later = 0;
    const onFocusOut = () => {
      clearTimeout(later);
      later = window.setTimeout(onFocus, 0);
    };
    onFocus();
    document.addEventListener('focusin', onFocus);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      clearTimeout(later);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, [active]);

  useEffect(() => {
    const button = element.current;
    if (!active || !button || typeof IntersectionObserver === 'undefined') return;
    const under = new Set<Element>();
    let observer: IntersectionObserver | undefined;
    let watched = new Set<Element>();
    const watch = () => {
      for (const control of document.querySelectorAll(controls)) {
        if (watched.has(control) || button.contains(control)) continue;
        watched.add(control);
        observer?.observe(control);
      }
    };
    const observe = () => {
      observer?.disconnect();
      under.clear();
      watched = new Set();
      const box = button.getBoundingClientRect();
      const margin = [
        box.top - clearancePx,
        window.innerWidth - box.right - clearancePx,
        window.innerHeight - box.bottom - clearancePx,
        box.left - clearancePx,
      ].map((px) => `${-Math.max(0, Math.floor(px))}px`);
      observer = new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (entry.isIntersecting) under.add(entry.target);
            else under.delete(entry.target);
          }
          setCovering(under.size > 0);
        },
        { rootMargin: margin.join(' ') },
      );
      watch();
    };
    observe();
    let pending = 0;
    const mutations = new MutationObserver(() => {
      if (pending) return;
      pending = requestAnimationFrame(() => {
        pending = 0;
        for (const control of under) if (!control.isConnected) under.delete(control);
        watch();
        setCovering(under.size > 0);
      });
    });
    mutations.observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', observe);
    return () => {
      cancelAnimationFrame(pending);
      mutations.disconnect();
      observer?.disconnect();
      window.removeEventListener('resize', observe);
      setCovering(false);
    };
  }, [active, element]);

  return active && (typing || covering);
}
