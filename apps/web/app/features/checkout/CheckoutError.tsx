import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';

/** A step whose data could not be loaded (the API is down…): a page saying so, never a blank one. */
export function CheckoutError() {
  const error = useRouteError();
  const location = useLocation();
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <Notice
      icon="alert"
      title="No pudimos cargar tu compra"
      action={{ to: `${location.pathname}${location.search}`, label: 'Intentar nuevamente', reloadDocument: true }}
      secondary={
        <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4">
          Volver al inicio
        </Link>
      }
    >
      Tus datos están guardados. Por favor intenta nuevamente en unos minutos.
    </Notice>
  );
}
