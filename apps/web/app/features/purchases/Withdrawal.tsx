import { formatClp } from '@travesia/domain/money';
import { useEffect, useRef } from 'react';
import { Form, Link } from 'react-router';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { formatDay } from '#app/lib/format.ts';
import { refundBreakdownText } from './AddOns.tsx';
import { CompanyContacts } from './CompanyContacts.tsx';
import type { Purchase } from './purchase.ts';
import { dangerButton, secondaryButton } from './styles.ts';
import { useBusy } from './useBusy.ts';

/** «dd-mm-aaaa a las hh:mm» of an instant, in Chile's time (the same text on the server and in the browser). */
function chileDateTime(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Santiago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}-${part('month')}-${part('year')} a las ${part('hour')}:${part('minute')}`;
}

/**
 * Derecho a retracto: the conditions and «Retractarme» while it is available, then one confirmation (a form of its
 * own, so it works without JavaScript); once withdrawn, the refund's progress; when not available, why and how to
 * reach the company.
 */
export function Withdrawal({
  purchase,
  confirm,
  error,
}: {
  purchase: Purchase;
  confirm: boolean;
  error: string | null;
}) {
  const { withdrawal } = purchase;
  const asking = useBusy('retracto');
  const withdrawing = useBusy('retractarme');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (confirm) heading.current?.focus();
  }, [confirm]);
  const amount = formatClp(withdrawal.refund?.amountClp ?? purchase.amountClp);
  // With add-ons: the plan and the add-ons make up what is given back (issue 27 §1).
  const breakdown = refundBreakdownText(purchase.priceBreakdown, withdrawal.refund?.amountClp ?? purchase.amountClp);
  const breakdownText = breakdown ? <span className="block">{breakdown}</span> : null;
  return (
    <section
      aria-labelledby="mi-compra-retracto"
      className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6 md:col-span-2"
    >
      <h2 id="mi-compra-retracto" className="mb-3 text-lg font-bold text-brand-700">
        Derecho a retracto
      </h2>
      {error ? (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      {withdrawal.status === 'withdrawn' && withdrawal.refund?.method === 'manual' ? (
        <p className="text-slate-700">
          <strong>Compra anulada. Reembolsado por transferencia.</strong> Te devolvimos {amount} por transferencia
          bancaria{withdrawal.refund.refundedAt ? ` el ${chileDateTime(withdrawal.refund.refundedAt)}` : ''}. Según tu
          banco, el abono puede tardar algunos días hábiles en verse.
          {breakdownText}
        </p>
      ) : withdrawal.status === 'withdrawn' ? (
        <p className="text-slate-700">
          <strong>Compra anulada y reembolsada.</strong> Devolvimos {amount} al mismo medio de pago
          {withdrawal.refund?.refundedAt ? ` el ${chileDateTime(withdrawal.refund.refundedAt)}` : ''}. Según tu banco,
          el abono puede tardar algunos días hábiles en verse.
          {breakdownText}
        </p>
      ) : withdrawal.status === 'withdrawing' ? (
        <p className="text-slate-700">
          <strong>Retracto en proceso.</strong> Recibimos tu retracto: tus certificados quedaron anulados y estamos
          devolviendo {amount} al mismo medio de pago. Te avisaremos por correo cuando el reembolso se complete.
          {breakdownText}
        </p>
      ) : withdrawal.available && confirm ? (
        <div className="rounded-xl border-2 border-red-200 bg-red-50 p-4">
          <h3 ref={heading} tabIndex={-1} className="text-lg font-bold text-red-900 outline-none">
            ¿Confirmas que quieres retractarte de esta compra?
          </h3>
          <ul className="mt-2 list-disc pl-5 text-slate-800">
            <li>Tus certificados quedarán anulados de inmediato y ya no tendrás cobertura para este viaje.</li>
            <li>Te devolveremos el total pagado, {amount}, al mismo medio de pago.</li>
            {breakdown ? <li>{breakdown}</li> : null}
            <li>No se puede deshacer.</li>
          </ul>
          <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
            <Form method="post">
              <input type="hidden" name="intent" value="retractarme" />
              <SubmitButton
                busy={withdrawing}
                label="Sí, retractarme"
                busyLabel="Registrando..."
                className={dangerButton}
              />
            </Form>
            <Link to="/mi-compra" className="text-center font-semibold text-brand-700 underline underline-offset-4">
              No, volver a mi compra
            </Link>
          </div>
        </div>
      ) : withdrawal.available ? (
        <>
          <p className="text-slate-700">
            Puedes retractarte de esta compra hasta el {formatDay(withdrawal.lastDay)} a las 23:59, hora de Chile (10
            días corridos desde la fecha de compra), siempre que el viaje no haya comenzado (la cobertura comienza el{' '}
            {formatDay(withdrawal.coverageStart)}). Anularemos tus certificados y te devolveremos el total pagado,{' '}
            {amount}, al mismo medio de pago.
            {breakdownText}
          </p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="retracto" />
            <SubmitButton busy={asking} label="Retractarme" busyLabel="Abriendo..." className={secondaryButton} />
          </Form>
        </>
      ) : (
        <>
          <p className="text-slate-700">
            <strong>El retracto ya no está disponible para esta compra.</strong> {withdrawal.reason}
          </p>
          <CompanyContacts />
        </>
      )}
    </section>
  );
}
