import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import type { Route } from './+types/root';
import './app.css';
import { ErrorPage } from '#app/components/ErrorPage.tsx';

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/backoffice/favicon.svg', type: 'image/svg+xml' },
];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="es-CL">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Never indexed nor followed (the server also says so: X-Robots-Tag). */}
        <meta name="robots" content="noindex, nofollow" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** A page that failed before its layout could render (the layout has its own boundary for the signed-in pages). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main id="contenido" className="mx-auto max-w-xl p-6">
      <ErrorPage error={error} />
    </main>
  );
}
