import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
} from 'react-router';
import type { Route } from './+types/root';
import './app.css';
import { ShellModalsProvider } from '#app/components/ShellModals.tsx';
import { Footer, WhatsAppButton } from '#app/features/shell/Footer.tsx';
import { LoadingBar } from '#app/features/shell/LoadingBar.tsx';
import { MarketingScripts } from '#app/features/shell/MarketingScripts.tsx';
import { NavigationBar } from '#app/features/shell/NavigationBar.tsx';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import type { RootData } from '#app/lib/website.ts';

/** Routes that render without nav and footer (spec §2: preview and quoter modes) say so in their handle. */
export type ShellHandle = { hideChrome?: boolean };

export async function loader({ context }: Route.LoaderArgs): Promise<RootData> {
  const companyId = configuredCompanyId();
  const { data, response } = await serverApi(context).GET('/companies/{companyId}/website-parameters', {
    params: { path: { companyId } },
  });
  if (!data) throw new Response('Website parameters unavailable', { status: response.status === 404 ? 404 : 503 });
  return { companyId, website: data };
}

// The shell's configuration changes rarely; page navigations need not fetch it again.
export function shouldRevalidate() {
  return false;
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="es-CL">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b5563" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { companyId, website } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const hideChrome = matches.some((match) => (match.handle as ShellHandle | undefined)?.hideChrome);
  return (
    <ShellModalsProvider>
      <LoadingBar />
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
        <Outlet />
      </main>
      {hideChrome ? null : <Footer data={website.footer} companyId={companyId} />}
      {!hideChrome && website.configuration.isWhatsappWidgetEnabled ? (
        <WhatsAppButton number={website.configuration.whatsappNumber} />
      ) : null}
      <MarketingScripts />
    </ShellModalsProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const unavailable = isRouteErrorResponse(error) && error.status >= 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="mx-auto max-w-xl flex-1 px-4 py-20 text-center">
      <title>Travesía</title>
      <img src="/img/logo.svg" alt="Travesía" width={160} height={40} className="mx-auto mb-8 h-10 w-auto" />
      <h1 className="mb-4 text-2xl font-bold text-brand-700">
        {unavailable ? 'Estamos teniendo problemas para cargar la tienda' : 'Algo salió mal'}
      </h1>
      <p className="mb-8 text-slate-600">
        Por favor intenta nuevamente en unos minutos. Si necesitas asistencia urgente durante tu viaje, llama a nuestra
        central de emergencias.
      </p>
      <Link to="/" reloadDocument className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white">
        Volver al inicio
      </Link>
    </main>
  );
}
