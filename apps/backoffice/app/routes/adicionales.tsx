import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CheckboxGroup, CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice, StaleChanges } from '#app/components/Notice.tsx';
import { FieldErrorList } from '#app/components/Publishing.tsx';
import { ObjectFields } from '#app/components/StructuredFields.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  type AddOn,
  type AddOnField,
  type AddOnList,
  addOnEditors,
  addOnRoles,
  benefitFields,
  decimalShown,
  eligibilityGroups,
  eligibilityText,
} from '#app/features/add-ons.ts';
import { documentFromForm } from '#app/features/structured-form.ts';
import { callApi, refusedSave } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formList, formText } from '#app/lib/form.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/adicionales';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Adicionales') }];

export type AddOnsData = {
  list: AddOnList;
  canEdit: boolean;
  /** The add-on whose edit form is open (`?editar=ID`), or null. */
  editing: AddOn | null;
  error?: string;
};

const emptyList: AddOnList = { options: { passengerTypes: [], modalities: [], regions: [], plans: [] }, addOns: [] };

export async function loader({ request, context }: Route.LoaderArgs): Promise<AddOnsData> {
  const me = await requireOperator(context, request, addOnRoles);
  const canEdit = me.operator.roles.some((role) => addOnEditors.includes(role));
  const answer = await callApi<AddOnList>(context, request, '/add-ons');
  if (!answer.ok) return { list: emptyList, canEdit, editing: null, error: answer.error.message };
  const wanted = Number(new URL(request.url).searchParams.get('editar'));
  const editing = (canEdit && answer.data.addOns.find((addOn) => addOn.id === wanted)) || null;
  return { list: answer.data, canEdit, editing };
}

export type AddOnsResult = {
  ok: boolean;
  message: string;
  intent?: 'create' | 'update' | 'deactivate';
  id?: number;
  /** Each field's message (the API's, or this form's own), by the API's field names (`benefits.0.label` too). */
  errors?: Partial<Record<AddOnField | 'version', string>> & Record<string, string>;
  /** What another operator's save changed (a 409): one line a field. */
  changes?: string[];
  /** What was posted, as the API would take it, so a refused form comes back as the operator typed it. */
  values?: Omit<AddOn, 'id' | 'priceLabel' | 'priceFixed' | 'version' | 'updatedAt'> & { sortOrderText: string };
};

const staleMessage =
  'Otro operador guardó este adicional mientras lo editabas; no se guardó nada. Esto es lo que dice ahora: revísalo y vuelve a guardar.';

const done = {
  create: (name: string) => `Adicional «${name}» creado.`,
  update: (name: string) => `Adicional «${name}» guardado.`,
  deactivate: (name: string) =>
    `Adicional «${name}» desactivado: ya no se ofrece; las compras pagadas con él lo conservan.`,
} as const;

/** The form as the API takes it (the price of the kind chosen only; the other one is left out). */
function postedAddOn(form: FormData): NonNullable<AddOnsResult['values']> {
  const pricing = formText(form, 'pricing') === 'percent' ? 'percent' : 'daily';
  const ids = (name: string) => formList(form, name).map(Number);
  const { benefits } = documentFromForm(form, benefitFields, {}) as { benefits: AddOn['benefits'] };
  const sortOrderText = formText(form, 'sortOrder');
  return {
    code: formText(form, 'code'),
    name: formText(form, 'name'),
    description: formText(form, 'description'),
    benefits,
    pricing,
    priceUsdPerDay: pricing === 'daily' ? formText(form, 'priceUsdPerDay') || null : null,
    planPercent: pricing === 'percent' ? formText(form, 'planPercent') || null : null,
    passengerTypeIds: ids('tramo'),
    modalityIds: ids('modalidad'),
    destinationIds: ids('region'),
    productIds: ids('plan'),
    buyableAfterPurchase: form.get('buyableAfterPurchase') === 'si',
    sortOrder: Number(sortOrderText),
    sortOrderText,
    active: formText(form, 'active') === 'si',
  };
}

/** Create, save (with the version the form was loaded with) and deactivate: one API call each, with the CSRF token. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, addOnEditors);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const id = Number(formText(form, 'id'));
  const name = formText(form, 'name');
  const csrfToken = formText(form, 'csrf');
  const version = Number(formText(form, 'version'));
  if (intent !== 'create' && intent !== 'update' && intent !== 'deactivate') {
    return data<AddOnsResult>({ ok: false, message: 'Acción desconocida. Recarga la página.' }, 400);
  }
  if (intent !== 'create' && (!Number.isInteger(id) || id < 1 || !Number.isInteger(version) || version < 1)) {
    return data<AddOnsResult>(
      { ok: false, intent, message: 'Falta el adicional o su versión. Recarga la página.' },
      400,
    );
  }
  if (intent === 'deactivate') {
    const answer = await callApi<{ addOn: AddOn }>(context, request, `/add-ons/${id}/deactivate`, {
      method: 'POST',
      csrfToken,
      body: { version },
    });
    if (!answer.ok) return data<AddOnsResult>({ ok: false, intent, id, message: answer.error.message }, answer.status);
    return { ok: true, intent, id, message: done.deactivate(answer.data.addOn.name) } satisfies AddOnsResult;
  }
  const values = postedAddOn(form);
  if (!/^\d{1,5}$/.test(values.sortOrderText)) {
    const message = 'Escribe un número entero, desde 0.';
    return data<AddOnsResult>(
      { ok: false, intent, id, message: 'Revisa los datos del adicional.', errors: { sortOrder: message }, values },
      400,
    );
  }
  const { sortOrderText: _typed, active, ...body } = values;
  const answer = await callApi<{ addOn: AddOn }>(
    context,
    request,
    intent === 'create' ? '/add-ons' : `/add-ons/${id}`,
    {
      method: intent === 'create' ? 'POST' : 'PUT',
      csrfToken,
      body: intent === 'create' ? body : { ...body, active, version },
    },
  );
  if (!answer.ok) {
    const refusal = refusedSave(answer.error, staleMessage);
    return data<AddOnsResult>({ ok: false, intent, id, ...refusal, values }, answer.status);
  }
  return {
    ok: true,
    intent,
    id: answer.data.addOn.id,
    message: done[intent](answer.data.addOn.name || name),
  } satisfies AddOnsResult;
}

const benefitNames: Record<string, string> = { label: 'beneficio', value: 'límite o monto' };
/** `benefits.1.value` → «Beneficio 2, límite o monto». */
const benefitErrorName = (field: string) => {
  const [, index, part] = field.split('.');
  return index === undefined ? 'Beneficios' : `Beneficio ${Number(index) + 1}, ${benefitNames[part ?? ''] ?? part}`;
};

/** The create or edit form: every field labelled, errors read with their field, plain HTML that works without scripts. */
function AddOnForm({
  mode,
  addOn,
  options,
  csrfToken,
  result,
  busy,
}: {
  mode: 'create' | 'update';
  addOn: AddOn | null;
  options: AddOnList['options'];
  csrfToken: string;
  result?: AddOnsResult | undefined;
  busy: boolean;
}) {
  const mine = result && !result.ok && result.intent === mode ? result : undefined;
  const errors = mine?.errors ?? {};
  const shown = mine?.values ?? addOn;
  const prefix = mode === 'create' ? 'nuevo' : 'editar';
  const fixed = addOn?.priceFixed === true;
  const pricing = shown?.pricing ?? 'daily';
  const benefitErrors = Object.fromEntries(Object.entries(errors).filter(([field]) => field.startsWith('benefits')));
  return (
    <Form
      method="post"
      className="space-y-4 rounded border border-slate-300 bg-white p-3 sm:p-4"
      aria-labelledby={`${prefix}-titulo`}
      aria-busy={busy || undefined}
    >
      <h2 id={`${prefix}-titulo`} className="text-lg font-semibold">
        {mode === 'create' ? 'Nuevo adicional' : `Editar «${addOn?.name ?? ''}»`}
      </h2>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="intent" value={mode} />
      {mode === 'update' && addOn ? (
        <>
          <input type="hidden" name="id" value={addOn.id} />
          <input type="hidden" name="version" value={addOn.version} />
        </>
      ) : null}
      {mine ? <StaleChanges message={mine.message} changes={mine.changes} /> : null}

      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 font-semibold">Lo que ve el comprador</legend>
        <TextField
          id={`${prefix}-name`}
          name="name"
          label="Nombre"
          required
          maxLength={80}
          defaultValue={shown?.name ?? ''}
          error={errors.name}
        />
        {fixed ? (
          <div>
            <p className="field-label">Código</p>
            <p className="font-mono text-sm">{addOn?.code}</p>
            <input type="hidden" name="code" value={addOn?.code ?? ''} />
          </div>
        ) : (
          <TextField
            id={`${prefix}-code`}
            name="code"
            label="Código"
            required
            maxLength={40}
            autoComplete="off"
            defaultValue={shown?.code ?? ''}
            hint="Letras sin tilde, números y guiones, por ejemplo deportes-aventura. Único en la compañía."
            error={errors.code}
          />
        )}
        <div className="sm:col-span-2">
          <label htmlFor={`${prefix}-description`} className="field-label">
            Descripción (una línea, opcional)
          </label>
          <textarea
            id={`${prefix}-description`}
            name="description"
            rows={2}
            maxLength={300}
            defaultValue={shown?.description ?? ''}
            className="field-input"
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? `${prefix}-description-error` : undefined}
          />
          {errors.description ? (
            <p id={`${prefix}-description-error`} className="field-error">
              {errors.description}
            </p>
          ) : null}
        </div>
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="mb-2 font-semibold">Beneficios (a lo más 20)</legend>
        <p className="text-sm text-slate-700">
          En el orden de «Posición». Para agregar uno, llena «Agregar: beneficio» y guarda.
        </p>
        <ObjectFields fields={benefitFields} value={{ benefits: shown?.benefits ?? [] }} errors={benefitErrors} />
        <FieldErrorList errors={benefitErrors} nameOf={benefitErrorName} />
      </fieldset>

      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 font-semibold">Precio por viajero</legend>
        {fixed ? (
          <div className="sm:col-span-2">
            <p className="text-sm">{addOn?.priceLabel}</p>
            <p className="field-hint">
              El precio del upgrade covid se edita por plan en «Precios»; aquí cambian sus textos, beneficios, estado y
              orden.
            </p>
            <input type="hidden" name="pricing" value={addOn?.pricing ?? 'daily'} />
            <input type="hidden" name="priceUsdPerDay" value={addOn?.priceUsdPerDay ?? ''} />
            <input type="hidden" name="planPercent" value={addOn?.planPercent ?? ''} />
          </div>
        ) : (
          <>
            <fieldset
              className="sm:col-span-2"
              aria-describedby={errors.pricing ? `${prefix}-pricing-error` : undefined}
            >
              <legend className="field-label">Cómo se cobra</legend>
              <label className="mr-4 inline-flex items-center gap-1">
                <input type="radio" name="pricing" value="daily" defaultChecked={pricing === 'daily'} /> Por día de
                viaje
              </label>
              <label className="inline-flex items-center gap-1">
                <input type="radio" name="pricing" value="percent" defaultChecked={pricing === 'percent'} /> Porcentaje
                del plan
              </label>
              {errors.pricing ? (
                <p id={`${prefix}-pricing-error`} className="field-error">
                  {errors.pricing}
                </p>
              ) : null}
            </fieldset>
            <TextField
              id={`${prefix}-usd`}
              name="priceUsdPerDay"
              label="USD por viajero por día (si es por día)"
              inputMode="decimal"
              defaultValue={decimalShown(shown?.priceUsdPerDay ?? null)}
              hint="Por ejemplo 2,50: se multiplica por los días del viaje. Hasta USD 1.000."
              error={errors.priceUsdPerDay}
            />
            <TextField
              id={`${prefix}-percent`}
              name="planPercent"
              label="Porcentaje del plan (si es porcentaje)"
              inputMode="decimal"
              defaultValue={decimalShown(shown?.planPercent ?? null)}
              hint="Por ejemplo 30: del precio del plan de ese viajero, después de su descuento."
              error={errors.planPercent}
            />
          </>
        )}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="mb-2 font-semibold">A quién se vende</legend>
        <p className="text-sm text-slate-700">Sin ninguno marcado en un grupo: Todos.</p>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {eligibilityGroups.map((group) =>
            fixed ? (
              <div key={group.field}>
                <p className="field-label">{group.legend}</p>
                <p className="text-sm">
                  {addOn?.[group.field].length
                    ? options[group.options]
                        .filter((option) => addOn[group.field].includes(option.id))
                        .map((option) => option.label)
                        .join(', ')
                    : 'Todos'}
                </p>
                {addOn?.[group.field].map((id) => (
                  <input key={id} type="hidden" name={group.name} value={id} />
                ))}
              </div>
            ) : (
              <CheckboxGroup
                key={group.field}
                id={`${prefix}-${group.name}`}
                legend={group.legend}
                name={group.name}
                choices={options[group.options]}
                checked={shown?.[group.field] ?? []}
                error={errors[group.field]}
              />
            ),
          )}
        </div>
        {fixed ? (
          <input type="hidden" name="buyableAfterPurchase" value={addOn?.buyableAfterPurchase ? 'si' : 'no'} />
        ) : (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="buyableAfterPurchase"
              value="si"
              defaultChecked={shown?.buyableAfterPurchase ?? false}
              aria-invalid={errors.buyableAfterPurchase ? true : undefined}
            />
            Se puede agregar después de la compra (hasta el día antes de la salida)
          </label>
        )}
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${prefix}-order`}
          name="sortOrder"
          label="Orden en la lista"
          inputMode="numeric"
          required
          defaultValue={mine?.values?.sortOrderText ?? String(addOn?.sortOrder ?? 0)}
          hint="Los de número menor se muestran primero."
          error={errors.sortOrder}
        />
        {mode === 'update' ? (
          <label className="flex items-center gap-2 self-end pb-2 text-sm">
            <input type="checkbox" name="active" value="si" defaultChecked={shown?.active ?? true} /> Activo (se ofrece
            a los compradores)
          </label>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Guardando…' : mode === 'create' ? 'Crear adicional' : 'Guardar cambios'}
        </button>
        {mode === 'update' ? (
          <Link to="/adicionales" className="button-secondary">
            Cancelar
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export function AddOnsView({
  list,
  canEdit,
  editing,
  error,
  csrfToken,
  result,
  busy = false,
}: AddOnsData & { csrfToken: string; result?: AddOnsResult | undefined; busy?: boolean }) {
  const formResult = result && !result.ok && result.intent !== 'deactivate' ? result : undefined;
  // A saved form starts again from what the API now says (a new version); a refused one keeps what was typed.
  const formKey = (id: number | null, version: number) =>
    `${id ?? 'nuevo'}-${version}-${result?.ok ? `ok${result.id}` : ''}`;
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Adicionales
      </h1>
      <p className="max-w-3xl text-sm text-slate-800">
        Lo que un viajero puede sumar a su plan: deportes, preexistencias, embarazo, cancelación, equipaje. Cada uno
        tiene un precio por viajero, por día de viaje o como porcentaje de su plan, y se ofrece solo a quienes marques.
        No se borran: desactívalos, y las compras pagadas con ellos los conservan.
      </p>
      {result && !formResult ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      {formResult && !formResult.changes?.length ? <Notice tone="error">{formResult.message}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {canEdit && editing ? (
        <AddOnForm
          key={formKey(editing.id, editing.version)}
          mode="update"
          addOn={editing}
          options={list.options}
          csrfToken={csrfToken}
          result={result}
          busy={busy}
        />
      ) : null}
      {list.addOns.length > 0 ? (
        <TableWrap label="Adicionales">
          <table className="data-table">
            <caption className="sr-only">Adicionales, con su precio, a quién se venden y su estado</caption>
            <thead>
              <tr>
                <th scope="col">Adicional</th>
                <th scope="col">Precio</th>
                <th scope="col">A quién se vende</th>
                <th scope="col">Se puede agregar después de la compra</th>
                <th scope="col">Estado</th>
                {canEdit ? <th scope="col">Acciones</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.addOns.map((addOn) => (
                <tr key={addOn.id}>
                  <td>
                    {addOn.name}
                    <span className="block font-mono text-xs text-slate-700">{addOn.code}</span>
                  </td>
                  <td>{addOn.priceLabel}</td>
                  <td>
                    <ul>
                      {eligibilityText(addOn, list.options).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  </td>
                  <td>{addOn.buyableAfterPurchase ? 'Sí' : 'No'}</td>
                  <td>{addOn.active ? 'Activo' : 'Desactivado'}</td>
                  {canEdit ? (
                    <td>
                      <div className="flex flex-wrap gap-2">
                        <Link to={`/adicionales?editar=${addOn.id}`} className="button-secondary">
                          Editar<span className="sr-only"> {addOn.name}</span>
                        </Link>
                        {addOn.active ? (
                          <Form method="post">
                            <CsrfField token={csrfToken} />
                            <input type="hidden" name="intent" value="deactivate" />
                            <input type="hidden" name="id" value={addOn.id} />
                            <input type="hidden" name="version" value={addOn.version} />
                            <button type="submit" className="button-secondary" disabled={busy}>
                              Desactivar<span className="sr-only"> {addOn.name}</span>
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
          Todavía no hay adicionales.{canEdit ? ' Crea el primero con el formulario de abajo.' : ''}
        </p>
      )}
      {canEdit && !editing ? (
        <AddOnForm
          key={formKey(null, 0)}
          mode="create"
          addOn={null}
          options={list.options}
          csrfToken={csrfToken}
          result={result}
          busy={busy}
        />
      ) : null}
    </section>
  );
}

export default function AddOns() {
  const { csrfToken } = useConsole();
  return (
    <AddOnsView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={useNavigation().state === 'submitting'}
    />
  );
}
