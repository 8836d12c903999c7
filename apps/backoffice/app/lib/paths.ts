/** Where the console is mounted (react-router.config.ts `basename`; apps/api/src/backoffice-web.ts). */
export const consoleBase = '/backoffice';

/**
 * The page to return to after signing in: a path inside the console (React Router adds the base to links and to
 * redirects alike) from the `volver` parameter, never another site nor the sign-in or enrolment pages; «Hoy»
 * otherwise.
 */
export function returnPath(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  if (/^\/(ingresar|enrolar|salir)(\/|\?|$)/.test(value)) return '/';
  return value;
}

/**
 * The path inside the console of a page request, as the browser shows it: without the base, and for React Router's
 * data requests (`/backoffice/x.data`, `/backoffice/_root.data?_routes=…`) the page they load data for.
 */
export function consolePathOf(url: URL): string {
  let path = url.pathname.startsWith(consoleBase) ? url.pathname.slice(consoleBase.length) : url.pathname;
  path = path.replace(/\.data$/, '').replace(/\/_root$/, '/');
  if (!path.startsWith('/')) path = `/${path}`;
  const params = new URLSearchParams(url.search);
  params.delete('_routes');
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The sign-in page, remembering the page the operator asked for. */
export function signInUrl(request: Request): string {
  const back = returnPath(consolePathOf(new URL(request.url)));
  return back === '/' ? '/ingresar' : `/ingresar?volver=${encodeURIComponent(back)}`;
}
