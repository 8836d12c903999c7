import { isRouteErrorResponse, Link, useLocation } from 'react-router';
import { Notice } from './Notice.tsx';

/** What the visitor is told, by the status of the error a page threw. */
const byStatus = {
  notFound: {
    title: 'No encontramos esta página',
    text: 'Puede que el enlace esté incompleto o que lo que buscas ya no exista.',
  },
  unavailable: {
    title: 'Esta página no está disponible por el momento',
    text: 'Estamos teniendo problemas para cargar la información. Por favor intenta nuevamente en unos minutos.',
  },
  other: {
    title: 'Algo salió mal',
    text: 'No pudimos mostrar esta página. Por favor intenta nuevamente en unos minutos.',
  },
};

/**
 * The one page-level error of the storefront (the root's error boundary renders it for every page): a 404 «not
 * found», a 503 «no disponible» or anything else, in words, with a way forward. A thrown `pageError()` response
 * (lib/api-answer.server.ts) adds its sentence, e.g. «No pudimos cargar los planes.».
 */
export function PageError({ error }: { error: unknown }) {
  const location = useLocation();
  const response = isRouteErrorResponse(error) ? error : null;
  const kind = response?.status === 404 ? 'notFound' : response && response.status >= 500 ? 'unavailable' : 'other';
  const { title, text } = byStatus[kind];
  // Only a pageError()'s sentence is shown; other errors' data is not written for visitors.
  const message: unknown = response?.data?.message;
  const detail = typeof message === 'string' ? message : null;
  const home = (
    <Link to="/" reloadDocument className="font-semibold text-brand-700 underline underline-offset-4">
      Volver al inicio
    </Link>
  );
  return (
    <Notice
      icon={kind === 'notFound' ? 'search' : 'alert'}
      title={title}
      action={
        kind === 'notFound'
          ? { to: '/', label: 'Volver al inicio', reloadDocument: true }
          : { to: `${location.pathname}${location.search}`, label: 'Intentar nuevamente', reloadDocument: true }
      }
      secondary={kind === 'notFound' ? undefined : home}
    >
      {detail ? <p className="mb-2 font-semibold text-slate-700">{detail}</p> : null}
      <p>{text}</p>
      <p className="mt-2">Si necesitas asistencia urgente durante tu viaje, llama a nuestra central de emergencias.</p>
    </Notice>
  );
}
