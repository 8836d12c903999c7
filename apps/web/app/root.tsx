import type { ReactNode } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import './app.css';
import { PageError } from '#app/components/PageError.tsx';
import { ShellModalsProvider } from '#app/components/ShellModals.tsx';
import { Footer, WhatsAppButton } from '#app/features/shell/Footer.tsx';
import { LoadingBar } from '#app/features/shell/LoadingBar.tsx';
import { MarketingScripts } from '#app/features/shell/MarketingScripts.tsx';
import { NavigationBar } from '#app/features/shell/NavigationBar.tsx';
import { loadShell } from '#app/features/shell/shell.server.ts';
import { pageTitle, type RootData } from '#app/lib/website.ts';

/**
 * Routes that render without nav and footer (spec §2: preview and quoter modes) say so in their handle; the checkout
 * steps leave out the floating WhatsApp button (the nav's help button already lists every contact there).
 */
export type ShellHandle = { hideChrome?: boolean; hideWhatsApp?: boolean };

export function loader(args: Route.LoaderArgs) {
  return loadShell(args);
}

// The shell's configuration changes rarely; page navigations need not fetch it again.
export function shouldRevalidate() {
  return false;
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export function Layout({ children }: { children: React.ReactNode }) {
  const shell = useRouteLoaderData<typeof loader>('root');
  const website = shell?.website;
  return (
    <html lang="es-CL">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b5563" />
        {shell?.preview ? <meta name="robots" content="noindex" /> : null}
        <Meta />
        <Links />
        <MarketingScripts website={website} placement="head" />
      </head>
      <body className="relative flex min-h-screen flex-col">
        {children}
        <MarketingScripts website={website} placement="body" />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** Nav, page and footer (the nav and footer hidden in the preview and quoter modes, spec §2). */
function Shell({ data, children }: { data: RootData; children: ReactNode }) {
  const { companyId, website } = data;
  const matches = useMatches();
  const handles = matches.map((match) => (match.handle ?? {}) as ShellHandle);
  const hideChrome = handles.some((handle) => handle.hideChrome);
  const showWhatsApp =
    !hideChrome && website.configuration.isWhatsappWidgetEnabled && !handles.some((handle) => handle.hideWhatsApp);
  return (
    <ShellModalsProvider>
      <LoadingBar />
      {data.preview ? <PreviewBanner state={data.preview} /> : null}
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Saltar al contenido
      </a>
      {hideChrome ? null : (
        <NavigationBar data={website.navigationBar} showClientAccess={website.features.virtualBranch} />
      )}
      <main id="contenido" className="flex-1">
        {children}
      </main>
      {hideChrome ? null : <Footer data={website.footer} companyId={companyId} floatingButtonSpace={showWhatsApp} />}
      {showWhatsApp ? <WhatsAppButton number={website.configuration.whatsappNumber} /> : null}
    </ShellModalsProvider>
  );
}

/** The console's site preview (issue 25): what the visitor sees is a draft, or the link did not open. */
function PreviewBanner({ state }: { state: 'draft' | 'invalid' }) {
  return (
    <div role="status" className="bg-amber-300 px-4 py-2 text-center font-bold text-slate-900">
      {state === 'draft'
        ? 'Vista previa: contenido del borrador, aún no publicado'
        : 'Vista previa no disponible: el enlace no es válido o ya venció; pide uno nuevo en la consola.'}
    </div>
  );
}

export default function App() {
  return (
    <Shell data={useLoaderData<typeof loader>()}>
      <Outlet />
    </Shell>
  );
}

/**
 * The one error boundary of the storefront: whatever page fails (a 404, the API unavailable, a fault) shows
 * components/PageError.tsx, inside the shell when the shell's own data loaded, alone when it did not.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData<typeof loader>('root');
  if (!isRouteErrorResponse(error)) console.error(error);
  const title = isRouteErrorResponse(error) && error.status === 404 ? 'Página no encontrada' : 'Página no disponible';
  const page = (
    <>
      <title>{pageTitle(title)[0]?.title}</title>
      <PageError error={error} />
    </>
  );
  if (shell) return <Shell data={shell}>{page}</Shell>;
  return (
    <main id="contenido" className="flex-1">
      <img src="/img/logo.svg" alt="Travesía" width={160} height={40} className="mx-auto mt-10 h-10 w-auto" />
      {page}
    </main>
  );
}
