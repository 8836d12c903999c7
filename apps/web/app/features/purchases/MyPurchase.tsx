import { formatClp, formatUsd } from '@travesia/domain/money';
import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { SelectField, TextField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { formatDay } from '#app/lib/format.ts';
import {
  type AccessInput,
  type DateChangeForm,
  documentKinds,
  type Purchase,
  type PurchasePageState,
} from './purchase.ts';

const primaryButton =
  'w-full rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800 disabled:cursor-wait disabled:opacity-70 sm:w-auto';
const secondaryButton =
  'w-full rounded-xl border-2 border-brand-700 px-5 py-2.5 font-bold text-brand-700 hover:bg-brand-700 hover:text-white disabled:cursor-wait disabled:opacity-60 sm:w-auto';

/** «Mi compra»: ask for a code, type it, then see the purchase and its documents. No account, no JavaScript needed. */
export function MyPurchase({ state }: { state: PurchasePageState }) {
  return (
    <div className="page-width py-10 sm:py-14">
      {state.step === 'purchase' ? (
        <PurchaseDetail purchase={state.purchase} dateChange={state.dateChange} notice={state.notice ?? null} />
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

function useBusy(intent: string) {
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
        Revisa tu compra y descarga tu comprobante y tus certificados. Te enviaremos un código al correo del titular.
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
          label="Documento del titular"
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
        Si los datos coinciden con una compra, enviamos un código de 6 dígitos al correo del titular. Vence en 10
        minutos.
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

function Rows({ rows }: { rows: { term: string; detail: ReactNode }[] }) {
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

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6">
      <h2 id={id} className="mb-3 text-lg font-bold text-brand-700">
        {title}
      </h2>
      {children}
    </section>
  );
}

function instalmentsText(payment: Purchase['payment']): string {
  const count = payment.instalments ?? 0;
  if (count <= 1) return 'Sin cuotas';
  return payment.instalmentAmountClp
    ? `${count} cuotas de ${formatClp(payment.instalmentAmountClp)}`
    : `${count} cuotas`;
}

const downloadLink =
  'flex items-center justify-center gap-2 rounded-xl bg-accent-700 px-4 py-3 font-bold text-white shadow hover:bg-accent-800';

function PurchaseDetail({
  purchase,
  dateChange,
  notice,
}: {
  purchase: Purchase;
  dateChange: DateChangeForm | undefined;
  notice: string | null;
}) {
  const leaving = useBusy('salir');
  const { payment } = purchase;
  return (
    <>
      <header className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-extrabold text-brand-700 sm:text-4xl">Mi compra</h1>
          <p className="mt-2 text-slate-600">
            Venta N° {purchase.idVenta} · pagada el {formatDay(purchase.paidAt)}
          </p>
        </div>
        <Form method="post">
          <input type="hidden" name="intent" value="salir" />
          <SubmitButton busy={leaving} label="Salir" busyLabel="Saliendo..." className={secondaryButton} />
        </Form>
      </header>
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
        <Card id="mi-compra-viaje" title="Tu viaje">
          <Rows
            rows={[
              { term: 'Plan', detail: purchase.plan },
              { term: 'Destino', detail: purchase.destination },
              { term: 'Modalidad', detail: purchase.modality },
              {
                term: 'Vigencia',
                detail: `${formatDay(purchase.departureDate)} al ${formatDay(purchase.returnDate)}`,
              },
              { term: 'Días', detail: String(purchase.days) },
              { term: 'Estado', detail: 'Pagada' },
            ]}
          />
        </Card>
        <Card id="mi-compra-pago" title="Tu pago">
          <Rows
            rows={[
              {
                term: 'Monto pagado',
                detail: `${formatClp(purchase.amountClp)} (${formatUsd(purchase.amountUsd)})`,
              },
              ...(payment.gateway ? [{ term: 'Medio de pago', detail: payment.gateway }] : []),
              ...(payment.paymentType ? [{ term: 'Tipo de pago', detail: payment.paymentType }] : []),
              { term: 'Cuotas', detail: instalmentsText(payment) },
              ...(payment.cardLastDigits
                ? [{ term: 'Tarjeta', detail: `terminada en ${payment.cardLastDigits}` }]
                : []),
              ...(payment.authorizationCode
                ? [{ term: 'Código de autorización', detail: payment.authorizationCode }]
                : []),
            ]}
          />
        </Card>
        <Card id="mi-compra-pasajeros" title="Pasajeros">
          <ul className="grid gap-2">
            {purchase.travellers.map((traveller) => (
              <li key={`${traveller.name}-${traveller.document}`} className="rounded-lg bg-slate-50 px-3 py-2 text-sm">
                <span className="block font-semibold text-slate-900">{traveller.name}</span>
                <span className="text-slate-600">
                  {traveller.documentType} {traveller.document}
                  {traveller.certificate ? ` · Certificado N° ${traveller.certificate}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </Card>
        <Card id="mi-compra-documentos" title="Tus documentos">
          <div className="grid gap-3">
            <a href="/mi-compra/comprobante.pdf" download="comprobante.pdf" className={downloadLink}>
              Descargar comprobante de compra
            </a>
            <a href="/mi-compra/certificado.pdf" download="certificado.pdf" className={downloadLink}>
              Descargar certificado
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
        <DateChangeCard purchase={purchase} form={dateChange} />
      </div>
    </>
  );
}

const actionTexts = {
  pay: (difference: number) => `Debes pagar la diferencia de ${formatClp(difference)}.`,
  refund: (difference: number) =>
    `Te devolveremos ${formatClp(-difference)} en tu medio de pago. Si la pasarela no permite devoluciones parciales (por ejemplo, con tarjeta de débito), te contactaremos para devolverte la diferencia por transferencia.`,
  none: () => 'El precio no cambia: no hay nada que pagar.',
} as const;

/**
 * «Cambiar fechas»: new dates → the new price and the difference (nothing changes yet) → confirm, which pays the
 * difference at the gateway, or applies the change at once. Every step is a form post.
 */
function DateChangeCard({ purchase, form }: { purchase: Purchase; form: DateChangeForm | undefined }) {
  const previewing = useBusy('ver-cambio-fechas');
  const confirming = useBusy('cambiar-fechas');
  const input = form?.input ?? { departureDate: purchase.departureDate, returnDate: purchase.returnDate };
  const preview = form?.preview ?? null;
  return (
    <Card id="mi-compra-cambio-fechas" title="Cambiar fechas">
      {purchase.dateChanges.length > 0 ? (
        <ul className="mb-4 grid gap-2 text-sm text-slate-700">
          {purchase.dateChanges.map((change) => (
            <li key={change.appliedAt}>
              Cambiado el {formatDay(change.appliedAt)}: antes del {formatDay(change.previousDepartureDate)} al{' '}
              {formatDay(change.previousReturnDate)}
              {change.differenceClp > 0 ? ` · pagaste ${formatClp(change.differenceClp)}` : ''}
              {change.differenceClp < 0
                ? ` · devolución de ${formatClp(-change.differenceClp)} (${change.refund ?? 'en proceso'})`
                : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {purchase.dateChange.available ? (
        <>
          <p className="text-sm text-slate-600">
            Puedes cambiar las fechas de tu viaje hasta el día anterior a la salida. Recalculamos el precio con el mismo
            plan, destino y pasajeros.
          </p>
          {form?.errors.form ? (
            <p role="alert" className="mt-3 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
              {form.errors.form}
            </p>
          ) : null}
          <Form method="post" noValidate aria-label="Cambiar fechas" className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="ver-cambio-fechas" />
            <div className="grid gap-4 sm:grid-cols-2">
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
            </div>
            <SubmitButton
              busy={previewing}
              label="Ver nuevo precio"
              busyLabel="Calculando..."
              className={secondaryButton}
            />
          </Form>
          {preview ? (
            <div role="status" className="mt-5 rounded-xl bg-slate-50 p-4">
              <Rows
                rows={[
                  {
                    term: 'Nuevas fechas',
                    detail: `${formatDay(preview.departureDate)} al ${formatDay(preview.returnDate)} (${preview.days} días)`,
                  },
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
                <SubmitButton
                  busy={confirming}
                  label={
                    preview.action === 'pay'
                      ? `Pagar diferencia de ${formatClp(preview.differenceClp)}`
                      : 'Confirmar cambio de fechas'
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
