import { isRouteErrorResponse, Link } from 'react-router';
import { pageTitle } from '#app/lib/title.ts';

/** What a failed page says: not found, not allowed, or not available now, in words and with a way on. */
export function ErrorPage({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const given =
    isRouteErrorResponse(error) && error.data && typeof error.data === 'object' && 'message' in error.data
      ? String(error.data.message)
      : undefined;
  const title =
    status === 404 ? 'Página no encontrada' : status === 403 ? 'Sin acceso a esta pantalla' : 'Página no disponible';
  const text =
    given ??
    (status === 404
      ? 'La dirección no corresponde a ninguna pantalla de la consola.'
      : 'Algo falló al preparar esta pantalla. Intenta de nuevo en un momento.');
  return (
    <section aria-labelledby="error-title" className="space-y-3">
      <title>{pageTitle(title)}</title>
      <h1 id="error-title" className="text-xl font-semibold">
        {title}
      </h1>
      <p>{text}</p>
      <p>
        <Link to="/" className="text-brand-700 underline">
          Volver a Hoy
        </Link>
      </p>
    </section>
  );
}
