import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's HTML (and so for a browser without JavaScript), true once React runs in the browser: widgets
 * that need scripts (menus, modals) render a plain-HTML fallback (a link or a <details>) until then.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
