import type { ReactNode } from 'react';
import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { legalPages } from '#app/features/legal-pages.ts';
import {
  dateChangeStatusLabels,
  documentTypeLabels,
  emailKindLabels,
  jobStatusLabels,
  paymentPurposeLabels,
  paymentStatusLabels,
  saleStatusLabels,
  voidedReasonLabels,
} from '#app/features/sales.ts';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { Role, SaleDetail } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime, formatFigure } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/venta';
import { salesRoles } from './ventas.tsx';

export const meta: Route.MetaFunction = ({ params }) => [{ title: pageTitle(`Venta ${params.id}`) }];

/** The roles that act on a sale on the buyer's behalf (the API's matrix: finance reads only). */
export const saleActionRoles: readonly Role[] = ['admin', 'support'];

export type SaleData = { sale: SaleDetail | null; error?: string };

export async function loader({ request, context, params }: Route.LoaderArgs): Promise<SaleData> {
  await requireOperator(context, request, salesRoles);
  const answer = await callApi<SaleDetail>(context, request, `/sales/${encodeURIComponent(params.id)}`);
  if (!answer.ok) {
    if (answer.status === 404 || answer.status === 400) throw data({ message: 'No existe esa venta.' }, 404);
    return { sale: null, error: answer.error.message };
  }
  return { sale: answer.data };
}

export type SaleResult = {
  ok: boolean;
  message: string;
  /** A correction's refused fields, with the traveller they were for. */
  correction?: { seq: number; errors: Partial<Record<'firstName' | 'lastName' | 'document' | 'reason', string>> };
};

const actions = {
  resend: { path: 'certificate-email', done: 'Certificados reenviados a los viajeros de la venta.' },
  revoke: {
    path: 'revoke-access',
    done: 'Acceso a «Mi compra» revocado: los enlaces y códigos anteriores ya no sirven.',
  },
  withdraw: {
    path: 'withdrawal',
    done: 'Retracto registrado: los certificados quedaron anulados y la devolución está en curso.',
  },
} as const;

/** A traveller's correction: the API checks the name and the document (a RUT's check digit) and says what is wrong. */
async function correct(form: FormData, context: Route.ActionArgs['context'], request: Request, saleId: string) {
  const seq = Number(formText(form, 'seq'));
  const answer = await callApi<{ certificatesVersion: number }>(
    context,
    request,
    `/sales/${encodeURIComponent(saleId)}/travellers/${seq}/correction`,
    {
      method: 'POST',
      csrfToken: formText(form, 'csrf'),
      body: {
        firstName: formText(form, 'firstName'),
        lastName: formText(form, 'lastName'),
        document: { type: Number(formText(form, 'documentType')), id: formText(form, 'documentNumber') },
        reason: formText(form, 'reason'),
      },
    },
  );
  if (!answer.ok) {
    const errors = {
      firstName: fieldError(answer.error, 'firstName'),
      lastName: fieldError(answer.error, 'lastName'),
      document: fieldError(answer.error, 'document.id') ?? fieldError(answer.error, 'document.type'),
      reason: fieldError(answer.error, 'reason'),
    };
    return data<SaleResult>({ ok: false, message: answer.error.message, correction: { seq, errors } }, answer.status);
  }
  return {
    ok: true,
    message: `Viajero ${seq} corregido: se emitieron certificados nuevos (versión ${answer.data.certificatesVersion}) y se enviaron por correo.`,
  } satisfies SaleResult;
}

/** Resend, revoke, withdraw, correct: each one call of the API with the CSRF token (the API audits it). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  if (formText(form, 'intent') === 'correct') return correct(form, context, request, params.id);
  const intent = formText(form, 'intent') as keyof typeof actions;
  const chosen = actions[intent];
  if (!chosen) return data<SaleResult>({ ok: false, message: 'Acción desconocida.' }, 400);
  if (intent === 'withdraw' && formText(form, 'confirm') !== 'yes') {
    return data<SaleResult>(
      { ok: false, message: 'Confirma que el comprador pidió el retracto antes de registrarlo.' },
      400,
    );
  }
  const answer = await callApi<{ queued?: boolean }>(
    context,
    request,
    `/sales/${encodeURIComponent(params.id)}/${chosen.path}`,
    { method: 'POST', csrfToken: formText(form, 'csrf') },
  );
  if (!answer.ok) return data<SaleResult>({ ok: false, message: answer.error.message }, answer.status);
  if (intent === 'resend' && answer.data.queued === false) {
    return { ok: true, message: 'Ya se reenviaron hace menos de 10 minutos: no se envió otro correo.' };
  }
  return { ok: true, message: chosen.done } satisfies SaleResult;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const clp = (amount: number) => formatFigure(amount, 'clp');

/** One row per legal page the buyer accepted: its version, publication date and a link to that very text. */
function legalPageRows(pages: Record<string, { version: number; publishedAt: string }> | undefined) {
  return Object.entries(pages ?? {}).map(([slug, page]): [string, ReactNode] => [
    legalPages.find((page) => page.slug === slug)?.label ?? slug,
    <a key={slug} href={`/${slug}?version=${page.version}`} className="underline" target="_blank" rel="noopener">
      Versión {page.version} del {formatDateTime(page.publishedAt)}
    </a>,
  ]);
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 rounded border border-slate-300 bg-white p-3 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-700">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function CorrectionForm({
  person,
  csrfToken,
  errors,
}: {
  person: SaleDetail['travellers'][number];
  csrfToken: string;
  errors: NonNullable<SaleResult['correction']>['errors'] | undefined;
}) {
  const id = (field: string) => `corregir-${person.seq}-${field}`;
  return (
    <details open={errors !== undefined} className="rounded border border-slate-300 bg-white p-2">
      <summary className="cursor-pointer text-brand-700 underline">Corregir a {person.name}</summary>
      <Form method="post" className="mt-2 grid gap-2 sm:grid-cols-2">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="intent" value="correct" />
        <input type="hidden" name="seq" value={person.seq} />
        <p className="text-xs text-slate-700 sm:col-span-2">
          Los certificados se emiten de nuevo y se envían por correo.
        </p>
        <TextField
          id={id('nombres')}
          name="firstName"
          label="Nombres"
          defaultValue={person.firstName}
          required
          error={errors?.firstName}
        />
        <TextField
          id={id('apellidos')}
          name="lastName"
          label="Apellidos"
          defaultValue={person.lastName}
          required
          error={errors?.lastName}
        />
        <div>
          <label htmlFor={id('tipo')} className="field-label">
            Tipo de documento
          </label>
          <select id={id('tipo')} name="documentType" defaultValue={person.documentType} className="field-input">
            {Object.entries(documentTypeLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id={id('documento')}
          name="documentNumber"
          label="Número de documento"
          defaultValue={person.documentNumber}
          required
          error={errors?.document}
        />
        <TextField
          id={id('motivo')}
          name="reason"
          label="Motivo (queda en la auditoría)"
          required
          minLength={3}
          error={errors?.reason}
        />
        <div className="sm:col-span-2">
          <button type="submit" className="button-primary">
            Guardar corrección<span className="sr-only"> de {person.name}</span>
          </button>
        </div>
      </Form>
    </details>
  );
}

export function SaleView({
  sale,
  error,
  csrfToken,
  canAct,
  result,
}: SaleData & { csrfToken: string; canAct: boolean; result?: SaleResult | undefined }) {
  if (!sale) {
    return (
      <section className="space-y-3">
        <h1 className="text-xl font-semibold">Venta</h1>
        <Notice tone="error">{error ?? 'No pudimos cargar la venta.'}</Notice>
      </section>
    );
  }
  const paid = sale.status === 'paid';
  return (
    <article aria-labelledby="titulo" className="space-y-6">
      <p className="text-sm">
        <Link to="/ventas" className="text-brand-700 underline">
          ← Ventas
        </Link>
      </p>
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 id="titulo" className="text-xl font-semibold">
          Venta <span className="font-mono">{sale.id}</span>
        </h1>
        <span className="rounded bg-slate-200 px-2 text-sm">{saleStatusLabels[sale.status] ?? sale.status}</span>
        {sale.testPayment ? (
          <span className="rounded bg-amber-100 px-2 text-sm text-amber-900">Pago de prueba: sin valor real</span>
        ) : null}
      </div>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}

      <Facts
        rows={[
          ['Monto', `${clp(sale.amountClp)} (US$ ${sale.amountUsd.toFixed(2)})`],
          ['Creada', formatDateTime(sale.createdAt)],
          ['Pagada', formatDateTime(sale.paidAt)],
          ['Plan', sale.plan ?? '—'],
          [
            'Viaje',
            sale.trip
              ? `${sale.trip.destination}${sale.trip.destinationCountry ? ` (${sale.trip.destinationCountry})` : ''}, ${sale.trip.modality}: ${sale.trip.departureDate} al ${sale.trip.returnDate} (${sale.trip.days} días)`
              : '—',
          ],
          ['Código de descuento', sale.trip?.discountCode ?? '—'],
          [
            'Retracto',
            sale.withdrawal
              ? sale.withdrawal.available
                ? `Disponible hasta ${formatDateTime(sale.withdrawal.deadline)}`
                : (sale.withdrawal.reason ?? saleStatusLabels[sale.status])
              : '—',
          ],
        ]}
      />

      {canAct ? (
        <Section id="acciones" title="Acciones">
          <div className="flex flex-wrap items-start gap-3">
            <Form method="post">
              <CsrfField token={csrfToken} />
              <button type="submit" name="intent" value="resend" className="button-secondary" disabled={!paid}>
                Reenviar certificados
              </button>
            </Form>
            <Form method="post">
              <CsrfField token={csrfToken} />
              <button type="submit" name="intent" value="revoke" className="button-secondary" disabled={!paid}>
                Revocar acceso a «Mi compra»
              </button>
            </Form>
            {sale.withdrawal?.available ? (
              <Form method="post" className="space-y-2 rounded border border-red-300 bg-white p-3">
                <CsrfField token={csrfToken} />
                <div className="flex items-start gap-2 text-sm">
                  <input id="confirmar-retracto" type="checkbox" name="confirm" value="yes" required className="mt-1" />
                  <label htmlFor="confirmar-retracto">
                    El comprador pidió retractarse (por ejemplo, por teléfono) y verifiqué su identidad.
                  </label>
                </div>
                <button type="submit" name="intent" value="withdraw" className="button-danger">
                  Retractar por el comprador
                </button>
              </Form>
            ) : null}
          </div>
          <p className="text-xs text-slate-700">Cada acción queda en la auditoría con tu nombre.</p>
        </Section>
      ) : null}

      <Section id="viajeros" title="Viajeros">
        <TableWrap label="Viajeros de la venta">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Nombre</th>
                <th scope="col">Documento</th>
                <th scope="col">Nacimiento</th>
                <th scope="col">Correo</th>
              </tr>
            </thead>
            <tbody>
              {sale.travellers.map((person) => (
                <tr key={person.seq}>
                  <td>{person.seq}</td>
                  <td>{person.name}</td>
                  <td className="whitespace-nowrap">
                    {documentTypeLabels[person.documentType] ?? 'Documento'} {person.documentNumber}
                  </td>
                  <td className="whitespace-nowrap">{person.birthDate}</td>
                  <td className="break-all">{person.email}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
        {canAct && paid ? (
          <div className="space-y-2">
            {sale.travellers.map((person) => (
              <CorrectionForm
                key={person.seq}
                person={person}
                csrfToken={csrfToken}
                errors={result?.correction?.seq === person.seq ? result.correction.errors : undefined}
              />
            ))}
          </div>
        ) : null}
        {sale.travellers.length === 0 ? (
          <p className="text-sm">Esta venta aún no se pagó: no hay viajeros fijados.</p>
        ) : null}
      </Section>

      <Section id="dinero" title="Dinero">
        <Facts
          rows={[
            ['Pagado', clp(sale.ledger.paidClp)],
            ['Devuelto', clp(sale.ledger.refundedClp)],
            ['Devolución pendiente', clp(sale.ledger.pendingRefundClp)],
            ['Neto', clp(sale.ledger.netClp)],
          ]}
        />
        <TableWrap label="Movimientos de dinero">
          <table className="data-table">
            <caption className="sr-only">Pagos y devoluciones, del más antiguo al más reciente</caption>
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">Movimiento</th>
                <th scope="col">Medio</th>
                <th scope="col" className="text-right">
                  Monto
                </th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {sale.ledger.entries.map((entry) => (
                <tr key={`${entry.kind}-${entry.id}`}>
                  <td className="whitespace-nowrap">{formatDateTime(entry.date)}</td>
                  <td>
                    {entry.label}
                    {entry.instalmentsText ? <span className="block text-xs">{entry.instalmentsText}</span> : null}
                  </td>
                  <td>{entry.gatewayName}</td>
                  <td className="text-right whitespace-nowrap tabular-nums">
                    {entry.kind === 'refund' ? '-' : ''}
                    {clp(entry.amountClp)}
                  </td>
                  <td>{entry.statusLabel}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
        <TableWrap label="Intentos de pago">
          <table className="data-table">
            <caption className="sr-only">Todos los intentos de pago, aprobados o no</caption>
            <thead>
              <tr>
                <th scope="col">Transacción</th>
                <th scope="col">Para</th>
                <th scope="col">Pasarela</th>
                <th scope="col" className="text-right">
                  Monto
                </th>
                <th scope="col">Estado</th>
                <th scope="col">Tarjeta</th>
                <th scope="col">Autorización</th>
                <th scope="col">Iniciado</th>
              </tr>
            </thead>
            <tbody>
              {sale.payments.map((payment) => (
                <tr key={payment.id}>
                  <td className="font-mono">{payment.id}</td>
                  <td>{paymentPurposeLabels[payment.purpose] ?? payment.purpose}</td>
                  <td>{payment.gateway}</td>
                  <td className="text-right whitespace-nowrap tabular-nums">{clp(payment.amountClp)}</td>
                  <td>{paymentStatusLabels[payment.status] ?? payment.status}</td>
                  <td className="whitespace-nowrap">
                    {payment.cardLastDigits ? `•••• ${payment.cardLastDigits}` : '—'}
                    {payment.instalments && payment.instalments > 1 ? ` · ${payment.instalments} cuotas` : ''}
                  </td>
                  <td className="font-mono">{payment.authorizationCode ?? '—'}</td>
                  <td className="whitespace-nowrap">{formatDateTime(payment.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </Section>

      <Section id="certificados" title="Certificados">
        <TableWrap label="Certificados de la venta">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Número</th>
                <th scope="col">Viajero</th>
                <th scope="col">Emitido</th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {sale.certificates.map((certificate) => (
                <tr key={certificate.number}>
                  <td className="font-mono whitespace-nowrap">{certificate.number}</td>
                  <td>{certificate.travellerSeq ?? '—'}</td>
                  <td className="whitespace-nowrap">{formatDateTime(certificate.issuedAt)}</td>
                  <td>
                    {certificate.voidedAt
                      ? `${voidedReasonLabels[certificate.voidedReason ?? ''] ?? 'anulado'} el ${formatDateTime(certificate.voidedAt)}`
                      : 'Vigente'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
        <TableWrap label="Códigos de verificación">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Versión</th>
                <th scope="col">Código</th>
                <th scope="col">Creado</th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {sale.verificationCodes.map((code) => (
                <tr key={code.version}>
                  <td>{code.version}</td>
                  <td className="font-mono">{code.code}</td>
                  <td className="whitespace-nowrap">{formatDateTime(code.createdAt)}</td>
                  <td>{code.replacedAt ? `Reemplazado el ${formatDateTime(code.replacedAt)}` : 'Vigente'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </Section>

      <Section id="correos" title="Correos">
        <TableWrap label="Correos de la venta">
          <table className="data-table">
            <caption className="sr-only">Correos de los últimos 30 días, del más reciente al más antiguo</caption>
            <thead>
              <tr>
                <th scope="col">Correo</th>
                <th scope="col">Estado</th>
                <th scope="col">Intentos</th>
                <th scope="col">Pedido</th>
                <th scope="col">Último cambio</th>
              </tr>
            </thead>
            <tbody>
              {sale.emails.map((email) => (
                <tr key={email.id}>
                  <td>{emailKindLabels[email.kind] ?? email.kind}</td>
                  <td>
                    {jobStatusLabels[email.status] ?? email.status}
                    {email.lastError ? <span className="block text-xs text-red-900">{email.lastError}</span> : null}
                  </td>
                  <td className="tabular-nums">{email.attempts}</td>
                  <td className="whitespace-nowrap">{formatDateTime(email.createdAt)}</td>
                  <td className="whitespace-nowrap">{formatDateTime(email.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
        {sale.emails.length === 0 ? (
          <p className="text-sm">No hay correos de esta venta en los últimos 30 días.</p>
        ) : null}
      </Section>

      <Section id="consentimientos" title="Consentimientos">
        {sale.consents ? (
          <Facts
            rows={[
              ['Tratamiento de datos', sale.consents.dataProcessing ? 'Aceptado' : 'No aceptado'],
              ['Comunicaciones comerciales', sale.consents.marketing ? 'Aceptadas' : 'No aceptadas'],
              ['Versión de los textos', sale.consents.version],
              ...legalPageRows(sale.consents.legalPages),
              ['Registrado', formatDateTime(sale.consents.recordedAt)],
            ]}
          />
        ) : (
          <p className="text-sm">Esta venta no tiene consentimientos registrados (anterior a su registro).</p>
        )}
      </Section>

      <Section id="cambios" title="Cambios de fecha y adicionales">
        {sale.dateChanges.length === 0 ? (
          <p className="text-sm">Sin cambios de fecha ni adicionales agregados.</p>
        ) : (
          <TableWrap label="Cambios de fecha y adicionales">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Pedido</th>
                  <th scope="col">Cambio</th>
                  <th scope="col">Antes</th>
                  <th scope="col">Después</th>
                  <th scope="col" className="text-right">
                    Diferencia
                  </th>
                  <th scope="col">Estado</th>
                </tr>
              </thead>
              <tbody>
                {sale.dateChanges.map((change) => (
                  <tr key={change.id}>
                    <td className="whitespace-nowrap">{formatDateTime(change.createdAt)}</td>
                    <td>{change.kind === 'add_ons' ? 'Adicionales agregados' : 'Fechas'}</td>
                    <td className="whitespace-nowrap">
                      {change.previousDepartureDate} al {change.previousReturnDate}
                    </td>
                    <td className="whitespace-nowrap">
                      {change.departureDate} al {change.returnDate}
                    </td>
                    <td className="text-right whitespace-nowrap tabular-nums">{clp(change.differenceClp)}</td>
                    <td>{dateChangeStatusLabels[change.status] ?? change.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Section>
    </article>
  );
}

export default function Sale() {
  const loaded = useLoaderData<typeof loader>();
  const { csrfToken, operator } = useConsole();
  const canAct = operator.roles.some((role) => saleActionRoles.includes(role));
  return <SaleView {...loaded} csrfToken={csrfToken} canAct={canAct} result={useActionData<typeof action>()} />;
}
