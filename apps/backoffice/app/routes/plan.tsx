import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CheckboxGroup, CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import {
  DraftChanges,
  FieldErrorList,
  PublicationHistory,
  PublishSection,
  ResultNotice,
  ScheduledNotice,
} from '#app/components/Publishing.tsx';
import {
  conditionsUrl,
  newBenefitRows,
  type PlanDetails,
  type PlanItem,
  type PlanOptions,
  planEditors,
  planFromForm,
  planReaders,
  shownBesideField,
} from '#app/features/plans.ts';
import type { Publication, PublishingResult } from '#app/features/publishing.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { chosenFile, formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { publishingAction, refused, saveDraftOf } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/plan';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Un plan') }];

export type PlanData = {
  item: PlanItem | null;
  options: PlanOptions | null;
  history: Publication[];
  canEdit: boolean;
  error?: string;
};

const planPath = (id: string) => `/plans/${encodeURIComponent(id)}`;

export async function loader({ request, context, params }: Route.LoaderArgs): Promise<PlanData> {
  const me = await requireOperator(context, request, planReaders);
  const canEdit = me.operator.roles.some((role) => planEditors.includes(role));
  const base = planPath(params.id);
  const [item, options, history] = await Promise.all([
    callApi<PlanItem>(context, request, base),
    callApi<PlanOptions>(context, request, `${base}/options`),
    callApi<{ publications: Publication[] }>(context, request, `${base}/history`),
  ]);
  if (!item.ok || !options.ok) {
    const failed = !item.ok ? item : options.ok ? undefined : options;
    return { item: null, options: null, history: [], canEdit, error: failed?.error.message };
  }
  return {
    item: item.data,
    options: options.data,
    history: history.ok ? history.data.publications : [],
    canEdit,
  };
}

/** The largest form the console reads (an image of 5 MB, conditions of 10 MB, the fields): more is refused unread. */
const maxFormBytes = 16 * 1024 * 1024;

/** Saves the plan's draft (after uploading a new image or conditions), or one of the publishing model's actions. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (Number(request.headers.get('content-length') ?? 0) > maxFormBytes) {
    return refused('Los archivos pesan demasiado: la imagen hasta 5 MB y las condiciones hasta 10 MB.', 413);
  }
  const form = await request.formData();
  const base = planPath(params.id);
  if (formText(form, 'intent') === 'guardar') {
    const item = await callApi<PlanItem>(context, request, base);
    if (!item.ok) return refused(item.error.message, item.status);
    const posted = planFromForm(form, item.data.draft?.body ?? item.data.live);
    if (Object.keys(posted.errors).length > 0) return refused('Revisa los campos marcados.', 400, posted.errors);
    const csrfToken = formText(form, 'csrf');
    const upload = async (what: 'image' | 'conditions', file: File) =>
      callApi<{ image?: PlanDetails['image']; conditionsKey?: string }>(
        context,
        request,
        `${base}/${what}?nombre=${encodeURIComponent(file.name || 'archivo')}`,
        { method: 'POST', file, csrfToken },
      );
    const image = chosenFile(form, 'imagen-archivo');
    if (image) {
      const answer = await upload('image', image);
      if (!answer.ok) return refused(answer.error.message, answer.status, { 'imagen-archivo': answer.error.message });
      if (answer.data.image) posted.plan.image = answer.data.image;
    }
    const conditions = chosenFile(form, 'condiciones-archivo');
    if (conditions) {
      const answer = await upload('conditions', conditions);
      if (!answer.ok) {
        return refused(answer.error.message, answer.status, { 'condiciones-archivo': answer.error.message });
      }
      posted.plan.conditionsKey = answer.data.conditionsKey ?? null;
    }
    return saveDraftOf(context, request, base, form, posted.plan);
  }
  const done = await publishingAction(context, request, base, form, {
    published: 'Plan publicado: la tienda ya lo muestra así.',
    rolledBack: 'Listo: la tienda volvió a esa versión del plan (queda en el historial).',
  });
  return done ?? refused('Acción desconocida.', 400);
}

function ColourField({
  name,
  label,
  value,
  disabled,
}: {
  name: string;
  label: string;
  value: string;
  disabled: boolean;
}) {
  return (
    <label className="block text-sm">
      <span className="field-label">{label}</span>
      <input type="color" name={name} defaultValue={value} disabled={disabled} className="h-11 w-20 rounded border" />
    </label>
  );
}

export function PlanView({
  item,
  options,
  history,
  canEdit,
  error,
  csrfToken,
  result,
  busy = false,
}: PlanData & { csrfToken: string; result?: PublishingResult | undefined; busy?: boolean }) {
  if (!item || !options) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <h1 id="titulo" className="text-xl font-semibold">
          Plan
        </h1>
        <Notice tone="error">{error ?? 'No encontramos este plan.'}</Notice>
        <Link to="/planes" className="underline">
          Volver a la lista de planes
        </Link>
      </section>
    );
  }
  const shown = item.draft?.body ?? item.live;
  const version = item.draft?.version ?? 0;
  const errors = result?.errors ?? {};
  const readOnly = !canEdit;
  const benefitRows = [
    ...shown.benefits,
    ...Array.from({ length: newBenefitRows }, () => ({ label: '', value: '', isPriority: false })),
  ];
  const conditions = conditionsUrl(shown.conditionsKey);
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <Link to="/planes" className="text-sm underline">
          ← Todos los planes
        </Link>
        <h1 id="titulo" className="text-xl font-semibold">
          {item.live.label}
          {item.live.retired ? ' (retirado)' : ''}
        </h1>
        <p className="text-sm text-slate-700">
          {item.draft
            ? `Borrador versión ${item.draft.version}, guardado por ${item.draft.updatedBy} el ${formatDateTime(item.draft.updatedAt)}.`
            : 'Sin borrador: el formulario muestra el plan publicado.'}
        </p>
      </div>
      <ResultNotice result={result} />
      {error ? <Notice tone="error">{error}</Notice> : null}
      <ScheduledNotice scheduled={item.scheduled} canEdit={canEdit} csrfToken={csrfToken} busy={busy} />

      <Form method="post" encType="multipart/form-data" className="space-y-6" aria-labelledby="titulo">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        <input type="hidden" name="imagen-grande" value={shown.image.large} />
        <input type="hidden" name="imagen-chica" value={shown.image.small} />
        <input type="hidden" name="condiciones" value={shown.conditionsKey ?? ''} />
        <input type="hidden" name="beneficios" value={benefitRows.length} />

        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-lg font-semibold">Cómo se presenta</legend>
          <TextField
            name="nombre"
            label="Nombre"
            defaultValue={shown.label}
            readOnly={readOnly}
            error={errors.nombre}
            maxLength={60}
          />
          <TextField
            name="para-quien"
            label="Para quién (una línea que muestra el comparador)"
            defaultValue={shown.audience}
            readOnly={readOnly}
            maxLength={140}
          />
          <TextField
            name="insignia"
            label="Insignia (vacío: sin insignia)"
            defaultValue={shown.badge?.label ?? ''}
            readOnly={readOnly}
            maxLength={30}
          />
          <TextField
            name="color-mayores"
            label="Color de mayores de 75 (#RRGGBB; vacío: ninguno)"
            defaultValue={shown.arrowColor ?? ''}
            readOnly={readOnly}
            error={errors['color-mayores']}
          />
          <div className="flex flex-wrap gap-4 sm:col-span-2">
            <ColourField
              name="insignia-color"
              label="Color de la insignia"
              value={shown.badge?.color ?? '#f59e0b'}
              disabled={readOnly}
            />
            <ColourField name="color" label="Color del plan" value={shown.color} disabled={readOnly} />
            <ColourField name="color-titulo" label="Color del título" value={shown.titleColor} disabled={readOnly} />
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="mas-vendido" defaultChecked={shown.isBestSeller} disabled={readOnly} />
            Más vendido (destacado en el comparador)
          </label>
          <TextField
            name="cobertura"
            label="Cobertura médica (USD)"
            inputMode="numeric"
            defaultValue={String(shown.medicalLimitUsd)}
            readOnly={readOnly}
            error={errors.cobertura}
          />
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="mb-2 text-lg font-semibold">Imagen y condiciones generales</legend>
          {shown.image.small ? (
            <img
              src={shown.image.small}
              alt={`Imagen actual de ${shown.label}`}
              width={280}
              height={140}
              className="h-[140px] w-[280px] rounded object-cover"
            />
          ) : (
            <p className="text-sm text-slate-700">Sin imagen.</p>
          )}
          {canEdit ? (
            <TextField
              name="imagen-archivo"
              label="Nueva imagen (PNG o JPG, hasta 5 MB; se recorta a 16:7)"
              type="file"
              accept="image/png,image/jpeg"
              error={errors['imagen-archivo']}
            />
          ) : null}
          <p className="text-sm">
            {conditions ? (
              <a href={conditions} target="_blank" rel="noreferrer" className="underline">
                Condiciones generales actuales (PDF)
              </a>
            ) : (
              'Sin condiciones generales.'
            )}
          </p>
          {canEdit ? (
            <TextField
              name="condiciones-archivo"
              label="Nuevas condiciones generales (PDF, hasta 10 MB)"
              type="file"
              accept="application/pdf"
              error={errors['condiciones-archivo']}
            />
          ) : null}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="mb-2 text-lg font-semibold">Beneficios</legend>
          <p className="text-sm text-slate-700">
            En el orden del número «Orden»; los prioritarios se muestran en las tarjetas. Deja el nombre vacío para
            quitar uno.
          </p>
          <ol className="space-y-2">
            {benefitRows.map((benefit, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the form
                key={index}
                className="grid gap-2 rounded border border-slate-300 bg-white p-2 sm:grid-cols-[5rem_1fr_12rem_auto]"
              >
                <TextField
                  name={`beneficio-${index}-orden`}
                  label="Orden"
                  inputMode="numeric"
                  defaultValue={String(index + 1)}
                  readOnly={readOnly}
                />
                <TextField
                  name={`beneficio-${index}-nombre`}
                  label="Beneficio"
                  defaultValue={benefit.label}
                  readOnly={readOnly}
                  maxLength={80}
                />
                <TextField
                  name={`beneficio-${index}-limite`}
                  label="Límite"
                  defaultValue={benefit.value}
                  readOnly={readOnly}
                  maxLength={60}
                  error={errors[`beneficio-${index}-limite`]}
                />
                <label className="flex items-center gap-2 self-end pb-2 text-sm">
                  <input
                    type="checkbox"
                    name={`beneficio-${index}-prioritario`}
                    defaultChecked={benefit.isPriority}
                    disabled={readOnly}
                  />
                  Prioritario
                </label>
              </li>
            ))}
          </ol>
        </fieldset>

        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-2 text-lg font-semibold">Dónde y a quién se vende</legend>
          <CheckboxGroup
            legend="Modalidades"
            name="modalidad"
            choices={options.modalities}
            checked={shown.modalityIds}
            disabled={readOnly}
            error={errors.modalidad}
          />
          <CheckboxGroup
            legend="Regiones (se vende en las que tienen precios en «Precios»; desmarcar una borra sus precios)"
            name="region"
            choices={options.regions}
            checked={shown.regionIds}
            disabled={readOnly}
          />
          <CheckboxGroup
            legend="Tramos de edad"
            name="tramo"
            choices={options.passengerTypes}
            checked={shown.passengerTypeIds}
            disabled={readOnly}
            error={errors.tramo}
          />
        </fieldset>

        <fieldset className="grid gap-3 sm:grid-cols-3">
          <legend className="mb-2 text-lg font-semibold">IVA y venta</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="iva" defaultChecked={shown.tax.enabled} disabled={readOnly} />
            Cobra IVA
          </label>
          <TextField
            name="iva-tasa"
            label="Tasa de IVA (%)"
            inputMode="decimal"
            defaultValue={String(shown.tax.rateBp / 100)}
            readOnly={readOnly}
            error={errors['iva-tasa']}
          />
          <label className="block text-sm sm:col-span-3">
            <span className="field-label">
              Por qué lleva o no IVA (la tienda lo muestra en «¿Por qué?» bajo el precio)
            </span>
            <textarea
              name="iva-razon"
              rows={2}
              maxLength={300}
              defaultValue={shown.tax.reason ?? ''}
              readOnly={readOnly}
              className="field-input"
            />
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="retirado" defaultChecked={shown.retired} disabled={readOnly} />
            Retirado: no se cotiza (las ventas pagadas lo conservan)
          </label>
        </fieldset>

        <FieldErrorList
          errors={Object.fromEntries(Object.entries(errors).filter(([field]) => !shownBesideField(field)))}
        />
        {canEdit ? (
          <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
            Guardar borrador
          </button>
        ) : (
          <p className="text-sm text-slate-700">Tu rol puede ver el plan, no cambiarlo.</p>
        )}
      </Form>

      <DraftChanges changes={item.changes} />

      {canEdit && item.draft ? <PublishSection version={version} csrfToken={csrfToken} busy={busy} preview /> : null}

      <PublicationHistory history={history} canEdit={canEdit} csrfToken={csrfToken} busy={busy} />
    </section>
  );
}

export default function PlanPage() {
  const { csrfToken } = useConsole();
  const busy = useNavigation().state !== 'idle';
  return (
    <PlanView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={busy}
    />
  );
}
