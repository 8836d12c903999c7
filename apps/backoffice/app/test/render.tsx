import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';

/**
 * The markup of `element` rendered on the server inside a router (its Links and Forms need one), as SSR does, without
 * the empty comments React writes between adjacent texts.
 */
export function renderPage(element: ReactNode, path = '/'): string {
  const Stub = createRoutesStub([{ path: path.split('?')[0] ?? '/', Component: () => element }]);
  return renderToString(<Stub initialEntries={[path]} />).replaceAll('<!-- -->', '');
}
