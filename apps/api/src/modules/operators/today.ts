import { chileDayStart, todayInChile } from '@travesia/domain/dates';
import type { Database } from '#app/db/client.ts';
import { businessDaysSince, exchangeRateInForceSince } from '../catalog/service.ts';
import { countClaimsWaiting } from '../claims/service.ts';
import { countUnansweredBefore } from '../contact/service.ts';
import { countFailingJobs } from '../jobs/service.ts';
import { countOpenSaleRefunds, countPaymentsConfirmingSince, paidSalesBetween } from '../payments/service.ts';
import { countNotIssuedDocuments, notIssuedDocuments } from '../tax-documents/service.ts';

/**
 * One figure of the console's «Hoy» screen: what it counts, its value (`unit` `clp`: an amount in pesos, else a
 * count; a text when there is nothing to count), and the console list it links to.
 */
export type Figure = {
  key: string;
  label: string;
  value: number | string;
  unit?: 'clp';
  href: string;
  /** Something to act on, in words (the exchange rate is older than one business day). */
  warning?: string;
};

/** «Hoy»'s exchange-rate figure: its age in days, with a warning once it is older than one business day. */
export function exchangeRateFigure(rate: { since: Date; day: string } | null, now: Date): Figure {
  const base = {
    key: 'exchange-rate-age',
    label: 'Días desde el último tipo de cambio',
    href: '/backoffice/tipo-de-cambio',
  };
  if (!rate) {
    return {
      ...base,
      value: 'Sin tipo de cambio',
      warning:
        'No hay tipo de cambio vigente: la tienda no puede mostrar precios en pesos. Ingrésalo en «Tipo de cambio».',
    };
  }
  const value = Math.max(0, Math.floor((now.getTime() - rate.since.getTime()) / (24 * 60 * 60_000)));
  const businessDays = businessDaysSince(rate.day, todayInChile(now));
  if (businessDays <= 1) return { ...base, value };
  const [year, month, day] = rate.day.split('-');
  return {
    ...base,
    value,
    warning: `El tipo de cambio vigente es del ${day}-${month}-${year}: tiene ${businessDays} días hábiles de antigüedad. Actualízalo en «Tipo de cambio».`,
  };
}

/** «Hoy»'s tax-documents figure: documents not issued, with the oldest one's error from the provider in words. */
async function taxDocumentsFigure(db: Database, count: number): Promise<Figure> {
  const figure: Figure = {
    key: 'tax-documents-not-issued',
    label: 'Documentos tributarios sin emitir',
    value: count,
    href: '/backoffice/documentos-tributarios',
  };
  if (count === 0) return figure;
  const [oldest] = await notIssuedDocuments(db);
  return {
    ...figure,
    warning: `${oldest?.typeName ?? 'Documento'} de la venta N° ${oldest?.saleId}: ${oldest?.lastError ?? 'sin emitir'}. Reintenta desde «Documentos tributarios».`,
  };
}

/** The instant Chile's day of `at` (or its month's first day) began. */
function chileMidnight(at: Date, firstOfMonth: boolean): Date {
  const day = todayInChile(at);
  return chileDayStart(firstOfMonth ? `${day.slice(0, 8)}01` : day);
}

/**
 * The figures of screen 1 that today's tables hold (issue 24): sales and their amount today and this month (Chile
 * time), payments «en confirmación» for more than 5 minutes, sale refunds pending and held, claims waiting for the
 * insurer, contact requests unanswered for more than 24 hours, failing jobs (given up
 * in the last 7 days, or retrying). Each module counts its own rows.
 */
export async function todayFigures(db: Database, now: Date, companyId: number): Promise<Figure[]> {
  const minute = 60_000;
  const [today, month, confirming, refunds, claims, contact, jobs, rateSince, taxNotIssued] = await Promise.all([
    paidSalesBetween(db, chileMidnight(now, false), now),
    paidSalesBetween(db, chileMidnight(now, true), now),
    countPaymentsConfirmingSince(db, new Date(now.getTime() - 5 * minute)),
    countOpenSaleRefunds(db),
    countClaimsWaiting(db),
    countUnansweredBefore(db, new Date(now.getTime() - 24 * 60 * minute)),
    countFailingJobs(db, new Date(now.getTime() - 7 * 24 * 60 * minute)),
    exchangeRateInForceSince(db, companyId, now),
    countNotIssuedDocuments(db),
  ]);
  return [
    { key: 'sales-today', label: 'Ventas de hoy', value: today.count, href: '/backoffice/ventas?desde=hoy' },
    {
      key: 'sales-today-amount',
      label: 'Monto vendido hoy',
      value: today.amountClp,
      unit: 'clp',
      href: '/backoffice/ventas?desde=hoy',
    },
    { key: 'sales-month', label: 'Ventas del mes', value: month.count, href: '/backoffice/ventas?desde=mes' },
    {
      key: 'sales-month-amount',
      label: 'Monto vendido en el mes',
      value: month.amountClp,
      unit: 'clp',
      href: '/backoffice/ventas?desde=mes',
    },
    {
      key: 'payments-confirming',
      label: 'Pagos «en confirmación» hace más de 5 minutos',
      value: confirming,
      href: '/backoffice/ventas?estado=en-confirmacion',
    },
    {
      key: 'sale-refunds-pending',
      label: 'Devoluciones pendientes',
      value: refunds.pending,
      href: '/backoffice/reembolsos-de-ventas?estado=pendiente',
    },
    {
      key: 'sale-refunds-held',
      label: 'Devoluciones retenidas para transferencia',
      value: refunds.held,
      href: '/backoffice/reembolsos-de-ventas?estado=retenida',
    },
    {
      key: 'claims-waiting',
      label: 'Reembolsos esperando a la aseguradora',
      value: claims,
      href: '/backoffice/reembolsos?estado=esperando',
    },
    {
      key: 'contact-requests-24h',
      label: 'Solicitudes de contacto sin responder hace más de 24 horas',
      value: contact,
      href: '/backoffice/contacto?estado=sin-responder&antiguedad=24',
    },
    { key: 'jobs-failing', label: 'Trabajos y correos con fallas', value: jobs, href: '/backoffice/trabajos' },
    await taxDocumentsFigure(db, taxNotIssued),
    exchangeRateFigure(rateSince, now),
  ];
}
