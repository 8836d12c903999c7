import { Form, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import {
  DraftLine,
  DraftPublishHistory,
  FieldErrorList,
  ResultNotice,
  ScheduledNotice,
} from '#app/components/Publishing.tsx';
import {
  fieldInWords,
  type GeographyBody,
  geographyEditors,
  geographyFromForm,
  geographyPath,
} from '#app/features/geography.ts';
import type { Publication, PublishingItem, PublishingResult } from '#app/features/publishing.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { publishingAction, refused, saveDraftOf } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/geografia';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Geografía') }];

export type GeographyData = {
  item: PublishingItem<GeographyBody> | null;
  modalities: { id: number; label: string }[];
  history: Publication[];
  error?: string;
};

export async function loader({ request, context }: Route.LoaderArgs): Promise<GeographyData> {
  await requireOperator(context, request, geographyEditors);
  const [item, modalities, history] = await Promise.all([
    callApi<PublishingItem<GeographyBody>>(context, request, geographyPath()),
    callApi<{ modalities: { id: number; label: string }[] }>(context, request, '/geography-modalities'),
    callApi<{ publications: Publication[] }>(context, request, geographyPath('/history')),
  ]);
  if (!item.ok) return { item: null, modalities: [], history: [], error: item.error.message };
  return {
    item: item.data,
    modalities: modalities.ok ? modalities.data.modalities : [],
    history: history.ok ? history.data.publications : [],
  };
}

/** Save the form as the draft; publish, cancel, roll back (components/Publishing.tsx). */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, geographyEditors);
  const form = await request.formData();
  if (formText(form, 'intent') === 'guardar')
    return saveDraftOf(context, request, geographyPath(), form, geographyFromForm(form));
  return (
    (await publishingAction(context, request, geographyPath(), form, {
      published: 'Geografía: publicada. El cotizador ya la ofrece.',
      rolledBack: 'Listo: la tienda volvió a esa versión (queda en el historial).',
    })) ?? refused('Acción desconocida.', 400)
  );
}

const input = 'mt-1 block w-full rounded border border-slate-400 px-2 py-1';

function RegionRow({
  n,
  region,
  modalities,
}: {
  n: number;
  region: GeographyBody['regions'][number] | null;
  modalities: GeographyData['modalities'];
}) {
  const row = `region-${n}`;
  const retired = region !== null && region.modalityIds.length === 0;
  return (
    <fieldset className="space-y-2 rounded border border-slate-300 bg-white p-3">
      <legend className="px-1 font-semibold">
        {region ? `${region.label}${retired ? ' (retirada)' : ''}` : 'Nueva región'}
      </legend>
      <input type="hidden" name={`${row}-id`} value={region?.id ?? ''} />
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="block text-sm">
          <span className="field-label">Nombre</span>
          <input name={`${row}-nombre`} defaultValue={region?.label ?? ''} className={input} />
        </label>
        <label className="block text-sm">
          <span className="field-label">Código</span>
          <input name={`${row}-codigo`} defaultValue={region?.code ?? ''} className={input} />
        </label>
      </div>
      <fieldset className="text-sm">
        <legend className="field-label">Se vende en (sin ninguna: retirada)</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {modalities.map((modality) => (
            <label key={modality.id} className="inline-flex items-center gap-1">
              <input
                type="checkbox"
                name={`${row}-modalidad`}
                value={modality.id}
                defaultChecked={region?.modalityIds.includes(modality.id) ?? false}
              />
              {modality.label}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="block text-sm">
        <span className="field-label">Países (códigos ISO separados por comas)</span>
        <input name={`${row}-paises`} defaultValue={region?.countries.join(', ') ?? ''} className={input} />
      </label>
      {region ? (
        <label className="inline-flex items-center gap-1 text-sm">
          <input type="checkbox" name={`${row}-borrar`} value="si" /> Borrar (solo si nadie la ha cotizado)
        </label>
      ) : null}
    </fieldset>
  );
}

function ListRows<Row extends { id: number | null; label: string }>({
  title,
  prefix,
  rows,
  extra,
  flag,
}: {
  title: string;
  prefix: string;
  rows: Row[];
  extra?: { name: string; label: string; value: (row: Row | null) => string };
  /** A yes/no of each row (a country's «Schengen»), a checkbox sent as `si`. */
  flag?: { name: string; label: string; checked: (row: Row | null) => boolean };
}) {
  const columns = flag ? 'sm:grid-cols-[8rem_1fr_auto_auto]' : 'sm:grid-cols-[8rem_1fr_auto]';
  return (
    <fieldset className="space-y-2">
      <legend className="text-lg font-semibold">{title}</legend>
      <ul className="space-y-2">
        {[...rows, null].map((row, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows' fields are named by position; the form remounts per version
          <li key={n} className={`grid gap-2 rounded border border-slate-300 bg-white p-2 ${columns}`}>
            <input type="hidden" name={`${prefix}-${n}-id`} value={row?.id ?? ''} />
            {extra ? (
              <label className="block text-sm">
                <span className="field-label">{extra.label}</span>
                <input name={`${prefix}-${n}-${extra.name}`} defaultValue={extra.value(row)} className={input} />
              </label>
            ) : null}
            <label className={`block text-sm ${extra ? '' : 'sm:col-span-2'}`}>
              <span className="field-label">{row ? 'Nombre' : 'Agregar (nombre)'}</span>
              <input name={`${prefix}-${n}-nombre`} defaultValue={row?.label ?? ''} className={input} />
            </label>
            {flag ? (
              <label className="inline-flex items-center gap-1 self-end text-sm">
                <input
                  type="checkbox"
                  name={`${prefix}-${n}-${flag.name}`}
                  value="si"
                  defaultChecked={flag.checked(row)}
                />{' '}
                {flag.label}
              </label>
            ) : null}
            {row ? (
              <label className="inline-flex items-center gap-1 self-end text-sm">
                <input type="checkbox" name={`${prefix}-${n}-borrar`} value="si" /> Borrar
              </label>
            ) : (
              <span />
            )}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

export function GeographyView({
  item,
  modalities,
  history,
  error,
  csrfToken,
  result,
  busy = false,
}: GeographyData & { csrfToken: string; result?: PublishingResult | undefined; busy?: boolean }) {
  if (!item) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <h1 id="titulo" className="text-xl font-semibold">
          Geografía
        </h1>
        <Notice tone="error">{error ?? 'No pudimos cargar la geografía.'}</Notice>
      </section>
    );
  }
  const shown = item.draft?.body ?? item.live;
  const version = item.draft?.version ?? 0;
  const errors = result?.errors ?? {};
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <h1 id="titulo" className="text-xl font-semibold">
          Geografía
        </h1>
        <p className="text-sm text-slate-700">
          Las regiones que vende la tienda, en qué modalidades y con qué países; los países y los orígenes del
          cotizador. Una región que alguien ya cotizó o compró no se borra: se retira (se desmarcan sus modalidades) y
          deja de ofrecerse.
        </p>
        <DraftLine draft={item.draft} />
      </div>
      <ResultNotice result={result} />
      <ScheduledNotice scheduled={item.scheduled} canEdit csrfToken={csrfToken} busy={busy} />
      <Form
        method="post"
        className="space-y-6"
        aria-labelledby="editar"
        key={`${version}-${JSON.stringify(shown).length}`}
      >
        <h2 id="editar" className="sr-only">
          Editar
        </h2>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        <fieldset className="space-y-3">
          <legend className="text-lg font-semibold">Regiones</legend>
          {[...shown.regions, null].map((region, n) => (
            <RegionRow key={region?.id ?? `nueva-${n}`} n={n} region={region} modalities={modalities} />
          ))}
        </fieldset>
        <ListRows
          title="Países"
          prefix="pais"
          rows={shown.countries}
          extra={{ name: 'iso', label: 'Código ISO', value: (row) => row?.isoCode ?? '' }}
          flag={{ name: 'schengen', label: 'Schengen', checked: (row) => row?.schengen ?? false }}
        />
        <ListRows title="Orígenes" prefix="origen" rows={shown.origins} />
        <FieldErrorList errors={errors} nameOf={fieldInWords} />
        <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
          Guardar borrador
        </button>
      </Form>
      <DraftPublishHistory item={item} version={version} history={history} csrfToken={csrfToken} busy={busy} preview />
    </section>
  );
}

export default function Geography() {
  const { csrfToken } = useConsole();
  const busy = useNavigation().state !== 'idle';
  return (
    <GeographyView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={busy}
    />
  );
}
