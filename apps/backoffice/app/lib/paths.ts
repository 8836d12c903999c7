/** Where the console is mounted (react-router.config.ts `basename`; apps/api/src/backoffice-web.ts). */
export const consoleBase = '/backoffice';

/**
 * A console path as the browser sees it. Links and forms take paths inside the console (React Router adds the
 * base); a redirect from a loader or an action takes the whole path.
 */
export function consoleUrl(path: string): string {
  return path === '/' ? consoleBase : `${consoleBase}${path}`;
}

/**
 * The page to return to after signing in: a path inside the console from the `volver` parameter, never another
 * site nor the sign-in page itself; «Hoy» otherwise.
 */
export function returnPath(value: string | null | undefined): string {
  if (!value?.startsWith(consoleBase) || value.includes('\\')) return consoleBase;
  const rest = value.slice(consoleBase.length);
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return consoleBase;
  if (rest.startsWith('/ingresar') || rest.startsWith('/enrolar')) return consoleBase;
  return value;
}

/** The sign-in page, remembering the page the operator asked for. */
export function signInUrl(request: Request): string {
  const url = new URL(request.url);
  const wanted = url.pathname.replace(/\.data$/, '') + url.search;
  const back = returnPath(wanted);
  return back === consoleBase
    ? consoleUrl('/ingresar')
    : `${consoleUrl('/ingresar')}?volver=${encodeURIComponent(back)}`;
}
