import { Link } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import type { CheckoutNoticeState } from './checkout.ts';

/** Why a purchase step cannot be shown, and where to go instead. */
export function CheckoutNotice({ notice }: { notice: CheckoutNoticeState }) {
  switch (notice.state) {
    case 'not-found':
      return (
        <Notice icon="search" title="No encontramos esta compra" action={{ to: '/', label: 'Cotizar mi viaje' }}>
          Puede que el enlace esté incompleto o que la cotización ya no exista. Cotizar de nuevo toma menos de un
          minuto.
        </Notice>
      );
    case 'expired':
      return (
        <Notice
          icon="clock"
          title="La fecha de salida de esta cotización ya pasó"
          action={{ to: `/?cotizacion=${notice.quotationId}`, label: 'Cotizar de nuevo' }}
        >
          Los precios se calculan para viajes que aún no comienzan. Ingresa tus nuevas fechas y te mostramos los planes
          disponibles.
        </Notice>
      );
    case 'no-plan':
      return (
        <Notice
          icon="alert"
          title="Elige un plan para continuar"
          action={{ to: `/comparador/${notice.quotationId}`, label: 'Ver planes' }}
        >
          Tu cotización está guardada, pero aún no tiene un plan. Elige el que más te acomode y seguimos con los datos
          de los pasajeros.
        </Notice>
      );
    case 'unavailable':
      return (
        <Notice
          icon="alert"
          title="Este plan ya no está disponible para tu viaje"
          action={{ to: `/comparador/${notice.quotationId}`, label: 'Ver otros planes' }}
        >
          {notice.messages.length > 0 ? (
            <ul className="space-y-1">
              {notice.messages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : (
            'Algunos datos del viaje cambiaron. Revisa los planes disponibles para tu cotización.'
          )}
        </Notice>
      );
    case 'paid':
      return (
        <Notice
          icon="check"
          tone="success"
          title="Esta compra ya fue pagada"
          action={
            notice.successUrl
              ? { to: notice.successUrl, label: 'Ver mi compra y certificado' }
              : { to: '/certificados', label: 'Buscar mis certificados' }
          }
          secondary={
            <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4">
              Volver al inicio
            </Link>
          }
        >
          Ya no es posible modificar sus datos. Enviamos el certificado al correo de cada pasajero.
        </Notice>
      );
  }
}
