import { chileDateOf } from '@travesia/domain/dates';
import { phoneHref } from '@travesia/domain/links';
import { formatClp, formatUsd } from '@travesia/domain/money';
import { type ReactNode, useEffect, useRef } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { SelectField, TextField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { formatDay } from '#app/lib/format.ts';
import { useWebsite } from '#app/lib/website.ts';
import { PaymentLedger } from './PaymentLedger.tsx';
import {
  type AccessInput,
  type DateChangeForm,
  documentKinds,
  type Purchase,
  type PurchasePageState,
  refundText,
} from './purchase.ts';
import { TravellerPurchaseDetail } from './TravellerPurchase.tsx';

const primaryButton =
  'w-full rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800 disabled:cursor-wait disabled:opacity-70 sm:w-auto';
export const secondaryButton =
  'w-full rounded-xl border-2 border-brand-700 px-5 py-2.5 font-bold text-brand-700 hover:bg-brand-700 hover:text-white disabled:cursor-wait disabled:opacity-60 sm:w-auto';

/**
 * «Mi compra»: ask for a code, type it, then see the purchase and its documents (the buyer), or one's own trip (a
 * traveller). No account, no JavaScript needed.
 */
export function MyPurchase({ state }: { state: PurchasePageState }) {
  return (
    <div className="page-width py-10 sm:py-14">
      {state.step === 'traveller' ? (
        <TravellerPurchaseDetail purchase={state.purchase} />
      ) : state.step === 'purchase' ? (
        <PurchaseDetail
          purchase={state.purchase}
          confirmWithdrawal={state.confirmWithdrawal ?? false}
          withdrawalError={state.withdrawalError ?? null}
          dateChange={state.dateChange}
          notice={state.notice ?? null}
        />
      ) : (
        <div className="mx-auto max-w-xl">
          <h1 className="text-3xl font-extrabold text-brand-700 sm:text-4xl">Mi compra</h1>
          {state.step === 'request' ? (
            <RequestForm input={state.input} errors={state.errors} message={state.message} />
          ) : (
            <CodeForm input={state.input} error={state.error} />
          )}
        </div>
      )}
    </div>
  );
}

export function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

function RequestForm({
  input,
  errors,
  message,
}: {
  input: AccessInput;
  errors: Partial<Record<keyof AccessInput, string>>;
  message: string | null;
}) {
  const busy = useBusy('pedir');
  return (
    <>
      <p className="mt-3 text-slate-600">
        Revisa tu compra y descarga tus documentos. Si hiciste la compra, usa tu documento: te enviaremos un código al
        correo de la compra y verás la compra completa. Si eres otro pasajero, usa tu propio documento: te enviaremos el
        código a tu correo y verás tu viaje y tu certificado.
      </p>
      {message ? (
        <p role="alert" className="mt-6 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
          {message}
        </p>
      ) : null}
      <Form
        method="post"
        noValidate
        aria-label="Pedir código"
        className="mt-6 grid gap-4 rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
      >
        <input type="hidden" name="intent" value="pedir" />
        <TextField
          label="N° de compra o de certificado"
          name="number"
          defaultValue={input.number}
          error={errors.number}
          hint="Está en el correo de tu compra, por ejemplo 123456789 o TRV-2026-…"
          autoComplete="off"
          required
        />
        <SelectField label="Tipo de documento" name="documentType" defaultValue={input.documentType}>
          {documentKinds.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Tu documento"
          name="document"
          defaultValue={input.document}
          error={errors.document}
          hint="El RUT puede ir con o sin puntos y guion."
          autoComplete="off"
          required
        />
        <SubmitButton busy={busy} label="Enviar código" busyLabel="Enviando..." className={primaryButton} />
      </Form>
    </>
  );
}

function HiddenInput({ input }: { input: AccessInput }) {
  return (
    <>
      <input type="hidden" name="number" value={input.number} />
      <input type="hidden" name="documentType" value={input.documentType} />
      <input type="hidden" name="document" value={input.document} />
    </>
  );
}

function CodeForm({ input, error }: { input: AccessInput; error: string | null }) {
  const checking = useBusy('codigo');
  const resending = useBusy('pedir');
  return (
    <>
      <p className="mt-3 text-slate-600" role="status">
        Si los datos coinciden con una compra, enviamos un código de 6 dígitos al correo de quien hizo la compra o, si
        es el documento de otro pasajero, a su propio correo. Vence en 10 minutos.
      </p>
      <Form
        method="post"
        noValidate
        aria-label="Ingresar código"
        className="mt-6 grid gap-4 rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
      >
        <input type="hidden" name="intent" value="codigo" />
        <HiddenInput input={input} />
        <TextField
          label="Código"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          error={error ?? undefined}
          required
          autoFocus
        />
        <SubmitButton busy={checking} label="Ver mi compra" busyLabel="Revisando..." className={primaryButton} />
      </Form>
      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-center">
        <Form method="post">
          <input type="hidden" name="intent" value="pedir" />
          <HiddenInput input={input} />
          <SubmitButton
            busy={resending}
            label="Enviar otro código"
            busyLabel="Enviando..."
            className={secondaryButton}
          />
        </Form>
        <Link to="/mi-compra" className="font-semibold text-brand-700 underline underline-offset-4">
          Cambiar mis datos
        </Link>
      </div>
    </>
  );
}

export function Rows({ rows }: { rows: { term: string; detail: ReactNode }[] }) {
  return (
    <dl className="grid gap-2 text-sm">
      {rows.map((row) => (
        <div key={row.term} className="flex justify-between gap-4 border-b border-slate-100 pb-2 last:border-0">
          <dt className="text-slate-600">{row.term}</dt>
          <dd className="text-right font-semibold break-words text-slate-900">{row.detail}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What a buyer's and a traveller's view both show of the trip: the «Tu viaje» card. */
export function TripCard({
  trip,
}: {
  trip: Pick<
    Purchase,
    'plan' | 'destination' | 'destinationCountry' | 'modality' | 'departureDate' | 'returnDate' | 'days' | 'status'
  >;
}) {
  return (
    <Card id="mi-compra-viaje" title="Tu viaje">
      <Rows
        rows={[
          { term: 'Plan', detail: trip.plan },
          { term: 'Destino', detail: trip.destination },
          ...(trip.destinationCountry ? [{ term: 'País de destino', detail: trip.destinationCountry.label }] : []),
          { term: 'Modalidad', detail: trip.modality },
          { term: 'Vigencia', detail: `${formatDay(trip.departureDate)} al ${formatDay(trip.returnDate)}` },
          { term: 'Días', detail: String(trip.days) },
          { term: 'Estado', detail: statusLabels[trip.status] },
        ]}
      />
    </Card>
  );
}

export function Card({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6 ${className ?? ''}`}
    >
      <h2 id={id} className="mb-3 text-lg font-bold text-brand-700">
        {title}
      </h2>
      {children}
    </section>
  );
}

export const downloadLink =
  'flex items-center justify-center gap-2 rounded-xl bg-accent-700 px-4 py-3 font-bold text-white shadow hover:bg-accent-800';

export const statusLabels: Record<Purchase['status'], string> = {
  paid: 'Pagada',
  withdrawing: 'Retracto en proceso',
  withdrawn: 'Anulada y reembolsada',
};

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

function PurchaseDetail({
  purchase,
  confirmWithdrawal,
  withdrawalError,
  dateChange,
  notice,
}: {
  purchase: Purchase;
  confirmWithdrawal: boolean;
  withdrawalError: string | null;
  dateChange: DateChangeForm | undefined;
  notice: string | null;
}) {
  const leaving = useBusy('salir');
  const withdrawn = purchase.status !== 'paid';
  return (
    <>
      <header className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-extrabold text-brand-700 sm:text-4xl">Mi compra</h1>
          <p className="mt-2 text-slate-600">
            Venta N° {purchase.idVenta} · pagada el {formatDay(chileDateOf(purchase.paidAt))}
          </p>
        </div>
        <Form method="post">
          <input type="hidden" name="intent" value="salir" />
          <SubmitButton busy={leaving} label="Salir" busyLabel="Saliendo..." className={secondaryButton} />
        </Form>
      </header>
      {withdrawn ? (
        <p role="status" className="mb-6 rounded-lg bg-amber-50 px-4 py-3 font-semibold text-amber-900">
          {purchase.status === 'withdrawn'
            ? 'Compra anulada y reembolsada: te devolvimos lo pagado y los certificados quedaron anulados.'
            : 'Compra anulada. Retracto en proceso: anulamos tus certificados y estamos devolviendo lo pagado.'}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="mb-6 rounded-lg bg-emerald-50 px-4 py-3 font-semibold text-emerald-900">
          {notice}
        </p>
      ) : null}
      {purchase.testPayment ? (
        <p className="mb-6 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
          Pago de prueba: no se cobró dinero y los certificados no otorgan cobertura.
        </p>
      ) : null}
      <div className="grid gap-6 md:grid-cols-2">
        <TripCard trip={purchase} />
        <Card id="mi-compra-pago" title="Tu pago">
          <PaymentLedger ledger={purchase.ledger} status={purchase.status} amountUsd={purchase.amountUsd} />
        </Card>
        <Card id="mi-compra-pasajeros" title="Pasajeros">
          <ul className="grid gap-2">
            {purchase.travellers.map((traveller) => (
              <li key={`${traveller.name}-${traveller.document}`} className="rounded-lg bg-slate-50 px-3 py-2 text-sm">
                <span className="block font-semibold text-slate-900">{traveller.name}</span>
                <span className="text-slate-600">
                  {traveller.documentType} {traveller.document}
                  {traveller.certificate ? ` · Certificado N° ${traveller.certificate}` : ''}
                  {traveller.certificateVoided ? ' (anulado)' : ''}
                </span>
                {traveller.certificate && !traveller.certificateVoided ? (
                  <a
                    href={`/mi-compra/certificado-${traveller.certificate}.pdf`}
                    download={`certificado-${traveller.certificate}.pdf`}
                    className="block font-semibold text-brand-700 underline underline-offset-2"
                    // The name is beside it already: said to screen readers, not printed twice.
                    aria-label={`Descargar el certificado de ${traveller.name}`}
                  >
                    Descargar el certificado
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
        <Card id="mi-compra-documentos" title="Tus documentos">
          <div className="grid gap-3">
            <a href="/mi-compra/comprobante.pdf" download="comprobante.pdf" className={downloadLink}>
              Descargar comprobante de compra
            </a>
            {withdrawn ? (
              <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
                Los certificados de esta compra fueron anulados por el retracto y ya no se pueden descargar.
              </p>
            ) : (
              <a href="/mi-compra/certificado.pdf" download="certificado.pdf" className={downloadLink}>
                Descargar certificado (todos los pasajeros)
              </a>
            )}
            <a
              href={purchase.generalConditionsPdfUrl}
              target="_blank"
              rel="noopener"
              className="text-center font-semibold text-brand-700 underline underline-offset-4"
            >
              Condiciones generales (PDF)
              <span className="sr-only"> (se abre en una pestaña nueva)</span>
            </a>
            <a
              href={purchase.generalConditionsUrl}
              className="text-center font-semibold text-brand-700 underline underline-offset-4"
            >
              Condiciones generales
            </a>
          </div>
          <p className="mt-4 text-xs text-slate-600">
            Vendido por {purchase.seller.legalName}, RUT {purchase.seller.rut}, {purchase.seller.address}.
          </p>
        </Card>
        <Withdrawal purchase={purchase} confirm={confirmWithdrawal} error={withdrawalError} />
        <DateChangeCard purchase={purchase} form={dateChange} />
      </div>
    </>
  );
}

const dangerButton =
  'w-full rounded-xl bg-red-700 px-5 py-3 font-bold text-white shadow hover:bg-red-800 disabled:cursor-wait disabled:opacity-70 sm:w-auto';

/**
 * Derecho a retracto: the conditions and «Retractarme» while it is available, then one confirmation (a form of its
 * own, so it works without JavaScript); once withdrawn, the refund's progress; when not available, why and how to
 * reach the company.
 */
function Withdrawal({ purchase, confirm, error }: { purchase: Purchase; confirm: boolean; error: string | null }) {
  const { withdrawal } = purchase;
  const asking = useBusy('retracto');
  const withdrawing = useBusy('retractarme');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (confirm) heading.current?.focus();
  }, [confirm]);
  const amount = formatClp(withdrawal.refund?.amountClp ?? purchase.amountClp);
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
        </p>
      ) : withdrawal.status === 'withdrawn' ? (
        <p className="text-slate-700">
          <strong>Compra anulada y reembolsada.</strong> Devolvimos {amount} al mismo medio de pago
          {withdrawal.refund?.refundedAt ? ` el ${chileDateTime(withdrawal.refund.refundedAt)}` : ''}. Según tu banco,
          el abono puede tardar algunos días hábiles en verse.
        </p>
      ) : withdrawal.status === 'withdrawing' ? (
        <p className="text-slate-700">
          <strong>Retracto en proceso.</strong> Recibimos tu retracto: tus certificados quedaron anulados y estamos
          devolviendo {amount} al mismo medio de pago. Te avisaremos por correo cuando el reembolso se complete.
        </p>
      ) : withdrawal.available && confirm ? (
        <div className="rounded-xl border-2 border-red-200 bg-red-50 p-4">
          <h3 ref={heading} tabIndex={-1} className="text-lg font-bold text-red-900 outline-none">
            ¿Confirmas que quieres retractarte de esta compra?
          </h3>
          <ul className="mt-2 list-disc pl-5 text-slate-800">
            <li>Tus certificados quedarán anulados de inmediato y ya no tendrás cobertura para este viaje.</li>
            <li>Te devolveremos el total pagado, {amount}, al mismo medio de pago.</li>
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

/** How to reach the company (the website parameters' contact directory and the contact form). */
function CompanyContacts() {
  const { website } = useWebsite();
  const contacts = website.contacts.filter((contact) => !contact.isEmergency);
  return (
    <div className="mt-3 text-sm text-slate-700">
      <p>Si tienes dudas sobre tu compra, contáctanos:</p>
      <ul className="mt-2 grid gap-1">
        {contacts.map((contact) => (
          <li key={`${contact.label}-${contact.phone}`}>
            {contact.label}:{' '}
            <a className="font-semibold text-brand-700 underline underline-offset-2" href={phoneHref(contact.phone)}>
              {contact.phone}
            </a>
          </li>
        ))}
        <li>
          <Link to="/contacto" className="font-semibold text-brand-700 underline underline-offset-2">
            Escríbenos desde el formulario de contacto
          </Link>
        </li>
      </ul>
    </div>
  );
}

const actionTexts = {
  pay: (difference: number) => `Debes pagar la diferencia de ${formatClp(difference)}.`,
  refund: (difference: number) =>
    `Te devolveremos ${formatClp(-difference)} en tu medio de pago. Si la pasarela no permite devoluciones parciales (por ejemplo, con tarjeta de débito), te contactaremos para devolverte la diferencia por transferencia.`,
  none: () => 'El precio no cambia: no hay nada que pagar.',
} as const;

/**
 * «Cambiar fechas»: new dates and/or another country of the same region → the new price and the difference (nothing
 * changes yet) → confirm, which pays the difference at the gateway, or applies the change at once. Every step is a
 * form post. Full width (below «Derecho a retracto»): the three fields side by side on a wide screen, stacked on a
 * phone.
 */
function DateChangeCard({ purchase, form }: { purchase: Purchase; form: DateChangeForm | undefined }) {
  const previewing = useBusy('ver-cambio-fechas');
  const confirming = useBusy('cambiar-fechas');
  const input = form?.input ?? {
    departureDate: purchase.departureDate,
    returnDate: purchase.returnDate,
    countryDestination: String(purchase.destinationCountry?.id ?? ''),
  };
  const preview = form?.preview ?? null;
  const { countries } = purchase.dateChange;
  const datesMove =
    preview !== null &&
    (preview.departureDate !== purchase.departureDate || preview.returnDate !== purchase.returnDate);
  return (
    <Card id="mi-compra-cambio-fechas" title="Cambiar fechas" className="md:col-span-2">
      {purchase.dateChanges.length > 0 ? (
        <ul className="mb-4 grid gap-2 text-sm text-slate-700">
          {purchase.dateChanges.map((change) => (
            <li key={change.appliedAt}>
              Cambiado el {formatDay(chileDateOf(change.appliedAt))}: antes del{' '}
              {formatDay(change.previousDepartureDate)} al {formatDay(change.previousReturnDate)}
              {change.destinationCountry !== change.previousDestinationCountry
                ? ` · país de destino: ${change.previousDestinationCountry ?? 'sin especificar'} → ${change.destinationCountry ?? 'sin especificar'}`
                : ''}
              {change.differenceClp > 0 ? ` · pagaste ${formatClp(change.differenceClp)}` : ''}
              {change.differenceClp < 0 ? ` · ${refundText(change)}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {purchase.dateChange.available ? (
        <>
          <p className="text-sm text-slate-600">
            Puedes cambiar las fechas de tu viaje, y el país de destino dentro de la misma región (
            {purchase.destination}
            ), hasta el día anterior a la salida. Recalculamos el precio con el mismo plan, región y pasajeros.
          </p>
          {form?.errors.form ? (
            <p role="alert" className="mt-3 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
              {form.errors.form}
            </p>
          ) : null}
          <Form method="post" noValidate aria-label="Cambiar fechas" className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="ver-cambio-fechas" />
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <TextField
                label="Nueva fecha de salida"
                name="departureDate"
                type="date"
                defaultValue={input.departureDate}
                error={form?.errors.departureDate}
                required
              />
              <TextField
                label="Nueva fecha de regreso"
                name="returnDate"
                type="date"
                defaultValue={input.returnDate}
                error={form?.errors.returnDate}
                required
              />
              {countries.length > 0 ? (
                <SelectField
                  label="País de destino"
                  name="countryDestination"
                  defaultValue={input.countryDestination}
                  error={form?.errors.countryDestination}
                  className="sm:col-span-2 lg:col-span-1"
                >
                  {purchase.destinationCountry ? null : <option value="">Sin especificar</option>}
                  {countries.map((country) => (
                    <option key={country.id} value={String(country.id)}>
                      {country.label}
                    </option>
                  ))}
                </SelectField>
              ) : null}
            </div>
            {/* In a block of its own: a grid cell would stretch the button across the full-width card. */}
            <div>
              <SubmitButton
                busy={previewing}
                label="Ver nuevo precio"
                busyLabel="Calculando..."
                className={secondaryButton}
              />
            </div>
          </Form>
          {preview ? (
            <div role="status" className="mt-5 rounded-xl bg-slate-50 p-4 lg:max-w-2xl">
              <Rows
                rows={[
                  {
                    term: 'Nuevas fechas',
                    detail: `${formatDay(preview.departureDate)} al ${formatDay(preview.returnDate)} (${preview.days} días)`,
                  },
                  ...(preview.destinationCountry
                    ? [{ term: 'País de destino', detail: preview.destinationCountry.label }]
                    : []),
                  { term: 'Nuevo precio', detail: `${formatClp(preview.amountClp)} (${formatUsd(preview.amountUsd)})` },
                  { term: 'Pagado', detail: formatClp(preview.paidClp) },
                  {
                    term: 'Diferencia',
                    detail: `${preview.differenceClp > 0 ? '+' : ''}${formatClp(preview.differenceClp)}`,
                  },
                ]}
              />
              <p className="mt-3 text-sm font-semibold text-slate-800">
                {actionTexts[preview.action](preview.differenceClp)}
              </p>
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="cambiar-fechas" />
                <input type="hidden" name="departureDate" value={preview.departureDate} />
                <input type="hidden" name="returnDate" value={preview.returnDate} />
                {preview.destinationCountry ? (
                  <input type="hidden" name="countryDestination" value={String(preview.destinationCountry.id)} />
                ) : null}
                <SubmitButton
                  busy={confirming}
                  label={
                    preview.action === 'pay'
                      ? `Pagar diferencia de ${formatClp(preview.differenceClp)}`
                      : datesMove
                        ? 'Confirmar cambio de fechas'
                        : 'Confirmar cambio de país de destino'
                  }
                  busyLabel="Confirmando..."
                  className={primaryButton}
                />
              </Form>
            </div>
          ) : null}
        </>
      ) : (
        <p className="text-sm text-slate-700">{purchase.dateChange.reason}</p>
      )}
    </Card>
  );
}
