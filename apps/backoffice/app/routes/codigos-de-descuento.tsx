import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice, StaleChanges } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  chileDate,
  type DiscountCode,
  type DiscountCodeList,
  type DiscountField,
  discountCodeEditors,
  discountCodeRoles,
  discountFields,
  limitsText,
  plansText,
  stateLabels,
} from '#app/features/discount-codes.ts';
import { callApi, refusedSave } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formList, formText } from '#app/lib/form.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/codigos-de-descuento';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Códigos de descuento') }];

export type DiscountCodesData = {
  list: DiscountCodeList;
  canEdit: boolean;
  /** The code whose edit form is open (`?editar=CODE`), or null. */
  editing: DiscountCode | null;
  error?: string;
};

const emptyList: DiscountCodeList = { today: '', plans: [], codes: [] };

export async function loader({ request, context }: Route.LoaderArgs): Promise<DiscountCodesData> {
  const me = await requireOperator(context, request, discountCodeRoles);
  const canEdit = me.operator.roles.some((role) => discountCodeEditors.includes(role));
  const answer = await callApi<DiscountCodeList>(context, request, '/discount-codes');
  if (!answer.ok) return { list: emptyList, canEdit, editing: null, error: answer.error.message };
  const wanted = new URL(request.url).searchParams.get('editar')?.toUpperCase();
  const editing = (canEdit && answer.data.codes.find((code) => code.code === wanted)) || null;
  return { list: answer.data, canEdit, editing };
}

export type DiscountCodesResult = {
  ok: boolean;
  message: string;
  intent?: 'create' | 'update' | 'deactivate';
  code?: string;
  /** Each field's message (the API's, or this form's own), by the API's field names. */
  errors?: Partial<Record<DiscountField | 'version', string>>;
  /** What another operator's save changed (a 409): one line a field. */
  changes?: string[];
  /** The values posted, so a refused form comes back as the operator typed it. */
  values?: Record<string, string | string[]>;
};

const staleMessage =
  'Otro operador guardó este código mientras lo editabas; no se guardó nada. Esto es lo que dice ahora: revísalo y vuelve a guardar.';

const done = {
  create: (code: string) => `Código ${code} creado. Ya se puede usar en la tienda en sus fechas.`,
  update: (code: string) => `Código ${code} guardado.`,
  deactivate: (code: string) => `Código ${code} desactivado: la tienda ya no lo acepta y lo dice al comprador.`,
} as const;

/** A limit's text: blank is «sin límite» (null); anything but a whole number is refused here, in words. */
function limitOf(text: string): number | null | 'invalid' {
  if (text === '') return null;
  return /^\d{1,7}$/.test(text) ? Number(text) : 'invalid';
}

/** Create, save (with the version the form was loaded with) and deactivate: one API call each, with the CSRF token. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, discountCodeEditors);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const code = formText(form, 'code').toUpperCase();
  const csrfToken = formText(form, 'csrf');
  const version = Number(formText(form, 'version'));
  if (intent !== 'create' && intent !== 'update' && intent !== 'deactivate') {
    return data<DiscountCodesResult>({ ok: false, message: 'Acción desconocida. Recarga la página.' }, 400);
  }
  if (intent !== 'create' && (!code || !Number.isInteger(version) || version < 1)) {
    return data<DiscountCodesResult>(
      { ok: false, intent, message: 'Falta el código o su versión. Recarga la página.' },
      400,
    );
  }
  if (intent === 'deactivate') {
    const answer = await callApi<{ code: DiscountCode }>(
      context,
      request,
      `/discount-codes/${encodeURIComponent(code)}/deactivate`,
      {
        method: 'POST',
        csrfToken,
        body: { version },
      },
    );
    if (!answer.ok)
      return data<DiscountCodesResult>({ ok: false, intent, code, message: answer.error.message }, answer.status);
    return { ok: true, intent, code, message: done.deactivate(code) } satisfies DiscountCodesResult;
  }
  const values: Record<string, string | string[]> = {};
  for (const field of discountFields)
    values[field] = field === 'productIds' ? formList(form, field) : formText(form, field);
  values.scope = formText(form, 'scope');
  const kind = formText(form, 'kind') === 'amount' ? 'amount' : 'percent';
  const maxUses = limitOf(formText(form, 'maxUses'));
  const maxUsesPerBuyer = limitOf(formText(form, 'maxUsesPerBuyer'));
  const local: DiscountCodesResult['errors'] = {};
  if (maxUses === 'invalid') local.maxUses = 'Escribe un número entero, o déjalo en blanco para no limitar.';
  if (maxUsesPerBuyer === 'invalid')
    local.maxUsesPerBuyer = 'Escribe un número entero, o déjalo en blanco para no limitar.';
  const chosen = formList(form, 'productIds').map(Number);
  if (values.scope === 'lista' && chosen.length === 0)
    local.productIds = 'Elige al menos un plan, o «Todos los planes».';
  if (Object.keys(local).length > 0 || maxUses === 'invalid' || maxUsesPerBuyer === 'invalid') {
    return data<DiscountCodesResult>(
      { ok: false, intent, code, message: 'Revisa los datos del código de descuento.', errors: local, values },
      400,
    );
  }
  const body = {
    kind,
    percent: kind === 'percent' ? formText(form, 'percent') || null : null,
    amountUsd: kind === 'amount' ? formText(form, 'amountUsd') || null : null,
    validFrom: formText(form, 'validFrom'),
    validTo: formText(form, 'validTo'),
    maxUses,
    maxUsesPerBuyer,
    productIds: values.scope === 'lista' ? chosen : null,
    note: formText(form, 'note'),
    ...(intent === 'create' ? { code } : { version, active: formText(form, 'active') === 'si' }),
  };
  const answer = await callApi<{ code: DiscountCode }>(
    context,
    request,
    intent === 'create' ? '/discount-codes' : `/discount-codes/${encodeURIComponent(code)}`,
    { method: intent === 'create' ? 'POST' : 'PUT', csrfToken, body },
  );
  if (!answer.ok) {
    const refusal = refusedSave(answer.error, staleMessage);
    return data<DiscountCodesResult>({ ok: false, intent, code, ...refusal, values }, answer.status);
  }
  return {
    ok: true,
    intent,
    code: answer.data.code.code,
    message: done[intent](answer.data.code.code),
  } satisfies DiscountCodesResult;
}

const postedOr = (values: DiscountCodesResult['values'], name: string, fallback: string) => {
  const value = values?.[name];
  return typeof value === 'string' ? value : fallback;
};

/** The create or edit form: every field labelled, errors read with their field, plain HTML that works without scripts. */
function CodeForm({
  mode,
  code,
  plans,
  csrfToken,
  result,
}: {
  mode: 'create' | 'update';
  code: DiscountCode | null;
  plans: DiscountCodeList['plans'];
  csrfToken: string;
  result?: DiscountCodesResult | undefined;
}) {
  const mine = result && !result.ok && result.intent === mode ? result : undefined;
  const errors = mine?.errors ?? {};
  const values = mine?.values;
  const prefix = mode === 'create' ? 'nuevo' : 'editar';
  const kind = postedOr(values, 'kind', code?.kind ?? 'percent');
  const scope = postedOr(values, 'scope', code?.productIds ? 'lista' : 'todos');
  const chosen = Array.isArray(values?.productIds) ? values.productIds.map(Number) : (code?.productIds ?? []);
  return (
    <Form
      method="post"
      className="space-y-3 rounded border border-slate-300 bg-white p-4"
      aria-labelledby={`${prefix}-titulo`}
    >
      <h2 id={`${prefix}-titulo`} className="text-lg font-semibold">
        {mode === 'create' ? 'Nuevo código' : `Editar ${code?.code ?? ''}`}
      </h2>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="intent" value={mode} />
      {mode === 'update' && code ? (
        <>
          <input type="hidden" name="code" value={code.code} />
          <input type="hidden" name="version" value={code.version} />
        </>
      ) : null}
      {mine ? <StaleChanges message={mine.message} changes={mine.changes} /> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        {mode === 'create' ? (
          <TextField
            id={`${prefix}-code`}
            name="code"
            label="Código"
            required
            maxLength={30}
            autoComplete="off"
            defaultValue={postedOr(values, 'code', '')}
            hint="De 3 a 30 letras sin tilde, números, guion o guion bajo. El comprador lo escribe en el cotizador."
            error={errors.code}
          />
        ) : null}
        <fieldset>
          <legend className="field-label">Tipo de descuento</legend>
          <label className="mr-4 inline-flex items-center gap-1">
            <input type="radio" name="kind" value="percent" defaultChecked={kind === 'percent'} /> Porcentaje
          </label>
          <label className="inline-flex items-center gap-1">
            <input type="radio" name="kind" value="amount" defaultChecked={kind === 'amount'} /> Monto fijo en USD
          </label>
        </fieldset>
        <TextField
          id={`${prefix}-percent`}
          name="percent"
          label="Porcentaje (si es porcentaje)"
          inputMode="decimal"
          defaultValue={postedOr(values, 'percent', code?.percent?.replace('.', ',') ?? '')}
          hint="Se suma a la promoción del plan, por ejemplo 10 o 12,5."
          error={errors.percent}
        />
        <TextField
          id={`${prefix}-amount`}
          name="amountUsd"
          label="Monto en USD (si es monto fijo)"
          inputMode="decimal"
          defaultValue={postedOr(values, 'amountUsd', code?.amountUsd?.replace('.', ',') ?? '')}
          hint="Se descuenta del precio del plan en dólares; en pesos, al tipo de cambio del día. Nunca deja el precio bajo cero."
          error={errors.amountUsd}
        />
        <TextField
          id={`${prefix}-from`}
          name="validFrom"
          type="date"
          label="Válido desde (hora de Chile)"
          required
          defaultValue={postedOr(values, 'validFrom', code?.validFrom ?? '')}
          error={errors.validFrom}
        />
        <TextField
          id={`${prefix}-to`}
          name="validTo"
          type="date"
          label="Válido hasta, inclusive"
          required
          defaultValue={postedOr(values, 'validTo', code?.validTo ?? '')}
          error={errors.validTo}
        />
        <TextField
          id={`${prefix}-max`}
          name="maxUses"
          label="Límite total de usos"
          inputMode="numeric"
          defaultValue={postedOr(values, 'maxUses', code?.maxUses?.toString() ?? '')}
          hint="Ventas pagadas (y pagos en curso). En blanco: sin límite."
          error={errors.maxUses}
        />
        <TextField
          id={`${prefix}-buyer`}
          name="maxUsesPerBuyer"
          label="Límite por comprador"
          inputMode="numeric"
          defaultValue={postedOr(values, 'maxUsesPerBuyer', code?.maxUsesPerBuyer?.toString() ?? '')}
          hint="Mismo correo o mismo RUT o documento. En blanco: sin límite."
          error={errors.maxUsesPerBuyer}
        />
      </div>
      <fieldset aria-describedby={errors.productIds ? `${prefix}-planes-error` : undefined}>
        <legend className="field-label">Planes</legend>
        <label className="mr-4 inline-flex items-center gap-1">
          <input type="radio" name="scope" value="todos" defaultChecked={scope !== 'lista'} /> Todos los planes
        </label>
        <label className="inline-flex items-center gap-1">
          <input type="radio" name="scope" value="lista" defaultChecked={scope === 'lista'} /> Solo los marcados
        </label>
        <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
          {plans.map((plan) => (
            <label key={plan.id} className="inline-flex items-center gap-1">
              <input type="checkbox" name="productIds" value={plan.id} defaultChecked={chosen.includes(plan.id)} />
              {plan.label}
            </label>
          ))}
        </div>
        {errors.productIds ? (
          <p id={`${prefix}-planes-error`} className="field-error">
            {errors.productIds}
          </p>
        ) : null}
      </fieldset>
      <TextField
        id={`${prefix}-note`}
        name="note"
        label="Nota interna (opcional)"
        maxLength={500}
        defaultValue={postedOr(values, 'note', code?.note ?? '')}
        hint="Campaña o convenio; el comprador no la ve."
        error={errors.note}
      />
      {mode === 'update' ? (
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" name="active" value="si" defaultChecked={code?.active ?? true} /> Activo
        </label>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="button-primary">
          {mode === 'create' ? 'Crear código' : 'Guardar cambios'}
        </button>
        {mode === 'update' ? (
          <Link to="/codigos-de-descuento" className="button-secondary">
            Cancelar
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export function DiscountCodesView({
  list,
  canEdit,
  editing,
  error,
  csrfToken,
  result,
}: DiscountCodesData & { csrfToken: string; result?: DiscountCodesResult | undefined }) {
  const formResult = result && !result.ok && result.intent !== 'deactivate' ? result : undefined;
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Códigos de descuento
      </h1>
      <p className="max-w-3xl text-sm text-slate-800">
        Los códigos que el comprador escribe en el cotizador: un porcentaje que se suma a la promoción del plan o un
        monto fijo en dólares, con fechas, límites de uso y planes. Un uso se cuenta desde que el comprador inicia el
        pago; si el pago falla, el uso se libera. Los montos de cada código salen de sus ventas pagadas.
      </p>
      {result && !formResult ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      {formResult && !formResult.changes?.length ? <Notice tone="error">{formResult.message}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {canEdit && editing ? (
        <CodeForm mode="update" code={editing} plans={list.plans} csrfToken={csrfToken} result={result} />
      ) : null}
      {list.codes.length > 0 ? (
        <TableWrap label="Códigos de descuento">
          <table className="data-table">
            <caption className="sr-only">Códigos de descuento, con su estado, uso e ingresos</caption>
            <thead>
              <tr>
                <th scope="col">Código</th>
                <th scope="col">Descuento</th>
                <th scope="col">Vigencia</th>
                <th scope="col">Estado</th>
                <th scope="col">Límites</th>
                <th scope="col">Planes</th>
                <th scope="col" className="text-right">
                  Ventas pagadas
                </th>
                <th scope="col" className="text-right">
                  Descuento otorgado
                </th>
                <th scope="col" className="text-right">
                  Ingresos
                </th>
                {canEdit ? <th scope="col">Acciones</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.codes.map((code) => (
                <tr key={code.code}>
                  <td className="font-mono">{code.code}</td>
                  <td className="whitespace-nowrap">{code.label}</td>
                  <td className="whitespace-nowrap">
                    {chileDate(code.validFrom)} al {chileDate(code.validTo)}
                  </td>
                  <td>{stateLabels[code.state] ?? code.state}</td>
                  <td>{limitsText(code)}</td>
                  <td>{plansText(code, list.plans)}</td>
                  <td className="text-right tabular-nums">
                    {code.usage.paidSales}
                    {code.usage.reserved > 0 ? (
                      <span className="block text-xs text-slate-700">{code.usage.reserved} en pago</span>
                    ) : null}
                  </td>
                  <td className="text-right whitespace-nowrap tabular-nums">
                    {code.usage.formatted.discountClp}
                    <span className="block text-xs text-slate-700">{code.usage.formatted.discountUsd}</span>
                  </td>
                  <td className="text-right whitespace-nowrap tabular-nums">
                    {code.usage.formatted.revenueClp}
                    <span className="block text-xs text-slate-700">{code.usage.formatted.revenueUsd}</span>
                  </td>
                  {canEdit ? (
                    <td>
                      <div className="flex flex-wrap gap-2">
                        <Link
                          to={`/codigos-de-descuento?editar=${encodeURIComponent(code.code)}`}
                          className="button-secondary"
                        >
                          Editar<span className="sr-only"> {code.code}</span>
                        </Link>
                        {code.active ? (
                          <Form method="post">
                            <CsrfField token={csrfToken} />
                            <input type="hidden" name="intent" value="deactivate" />
                            <input type="hidden" name="code" value={code.code} />
                            <input type="hidden" name="version" value={code.version} />
                            <button type="submit" className="button-secondary">
                              Desactivar<span className="sr-only"> {code.code}</span>
                            </button>
                          </Form>
                        ) : null}
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : error ? null : (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">
          Todavía no hay códigos de descuento.{canEdit ? ' Crea el primero con el formulario de abajo.' : ''}
        </p>
      )}
      {canEdit && !editing ? (
        <CodeForm mode="create" code={null} plans={list.plans} csrfToken={csrfToken} result={result} />
      ) : null}
    </section>
  );
}

export default function DiscountCodes() {
  const { csrfToken } = useConsole();
  return (
    <DiscountCodesView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
    />
  );
}
