import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import {
  DraftLine,
  DraftPublishHistory,
  FieldErrorList,
  ResultNotice,
  ScheduledNotice,
} from '#app/components/Publishing.tsx';
import { ObjectFields } from '#app/components/StructuredFields.tsx';
import type { Publication, PublishingItem, PublishingResult } from '#app/features/publishing.ts';
import {
  type FooterBody,
  flagLabels,
  flagsFromForm,
  footerField,
  footerFromForm,
  type SiteSection,
  sectionOf,
  siteEditors,
  sitePath,
  structuredFields,
} from '#app/features/site.ts';
import { documentFromForm } from '#app/features/structured-form.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { publishingAction, refused, saveDraftOf } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/sitio-seccion';

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: pageTitle(loaded?.section?.label ?? 'El sitio') },
];

export type SectionData = {
  section: SiteSection | null;
  item: PublishingItem<unknown> | null;
  history: Publication[];
  error?: string;
};

export async function loader({ request, context, params }: Route.LoaderArgs): Promise<SectionData> {
  await requireOperator(context, request, siteEditors);
  const section = sectionOf(params.seccion);
  if (!section) throw data(null, { status: 404 });
  const [item, history] = await Promise.all([
    callApi<PublishingItem<unknown>>(context, request, sitePath(section)),
    callApi<{ publications: Publication[] }>(context, request, sitePath(section, '/history')),
  ]);
  if (!item.ok) return { section, item: null, history: [], error: item.error.message };
  return { section, item: item.data, history: history.ok ? history.data.publications : [] };
}

/** Save the section's form as the draft; publish, cancel, roll back (components/Publishing.tsx). */
export async function action({ request, context, params }: Route.ActionArgs) {
  await requireOperator(context, request, siteEditors);
  const section = sectionOf(params.seccion);
  if (!section) return refused('Sección desconocida.', 404);
  const form = await request.formData();
  const base = sitePath(section);
  if (formText(form, 'intent') === 'guardar') {
    const current = await callApi<PublishingItem<unknown>>(context, request, base);
    if (!current.ok) return refused(current.error.message, current.status);
    const shown = current.data.draft?.body ?? current.data.live;
    if (section.editor === 'footer')
      return saveDraftOf(context, request, base, form, footerFromForm(form, shown as FooterBody));
    if (section.editor === 'flags') {
      return saveDraftOf(context, request, base, form, flagsFromForm(form, shown as Record<string, boolean>));
    }
    if (section.editor === 'whatsapp') {
      return saveDraftOf(context, request, base, form, {
        whatsappNumber: formText(form, 'numero'),
        isWhatsappWidgetEnabled: form.get('boton') === 'si',
      });
    }
    const fields = structuredFields[section.kind];
    if (!fields) return refused('Sección desconocida.', 404);
    return saveDraftOf(context, request, base, form, documentFromForm(form, fields, shown as Record<string, unknown>));
  }
  return (
    (await publishingAction(context, request, base, form, {
      published: `${section.label}: publicado. La tienda ya lo muestra.`,
      rolledBack: 'Listo: la tienda volvió a esa versión (queda en el historial).',
    })) ?? refused('Acción desconocida.', 400)
  );
}

function FooterFields({ footer, errors }: { footer: FooterBody; errors: Record<string, string> }) {
  const invalid = (path: string) => (errors[path] ? true : undefined);
  return (
    <div className="space-y-4">
      {footer.menus.map((menu, m) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the columns' fields are named by position; the form remounts per version
        <fieldset key={m} className="space-y-2 rounded border border-slate-300 bg-white p-3">
          <legend className="px-1 font-semibold">Columna {m + 1}</legend>
          <label className="block text-sm">
            <span className="field-label">Título de la columna</span>
            <input
              name={footerField.menu(m)}
              defaultValue={menu.label}
              className="field-input"
              aria-invalid={invalid(`menus.${m}.label`)}
            />
          </label>
          {[
            ...menu.items.map((item, i) => ({ item, i: i as number | 'nuevo' })),
            { item: null, i: 'nuevo' as const },
          ].map(({ item, i }) => (
            <div key={String(i)} className="grid gap-2 sm:grid-cols-2">
              <label className="block text-sm">
                <span className="field-label">
                  {i === 'nuevo' ? 'Nuevo enlace: texto' : `Enlace ${i + 1}: texto`}
                  <span className="sr-only"> (columna {m + 1})</span>
                </span>
                <input
                  name={footerField.label(m, i)}
                  defaultValue={item?.label ?? ''}
                  className="field-input"
                  aria-invalid={i === 'nuevo' ? undefined : invalid(`menus.${m}.items.${i}.label`)}
                />
              </label>
              <label className="block text-sm">
                <span className="field-label">
                  {i === 'nuevo' ? 'Nuevo enlace: dirección' : `Enlace ${i + 1}: dirección`}
                  <span className="sr-only"> (columna {m + 1})</span>
                </span>
                <input
                  name={footerField.href(m, i)}
                  defaultValue={item?.href ?? ''}
                  className="field-input"
                  placeholder="/faq o https://…"
                  aria-invalid={i === 'nuevo' ? undefined : invalid(`menus.${m}.items.${i}.href`)}
                />
              </label>
            </div>
          ))}
        </fieldset>
      ))}
      <fieldset className="space-y-2 rounded border border-slate-300 bg-white p-3">
        <legend className="px-1 font-semibold">Redes sociales (vacío: se quita)</legend>
        {footer.socialMedia.map((social, s) => (
          <label key={social.icon} className="block text-sm">
            <span className="field-label">
              {social.icon
                .split('/')
                .pop()
                ?.replace(/\.\w+$/, '') ?? `Red ${s + 1}`}
            </span>
            <input
              name={footerField.social(s)}
              defaultValue={social.href}
              className="field-input"
              aria-invalid={invalid(`socialMedia.${s}.href`)}
            />
          </label>
        ))}
      </fieldset>
      <label className="block text-sm">
        <span className="field-label">Línea de derechos</span>
        <input
          name="derechos"
          defaultValue={footer.copyright}
          className="field-input"
          aria-invalid={invalid('copyright')}
        />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="suscripcion" value="si" defaultChecked={footer.usaSuscription} />
        Mostrar el formulario «Suscríbete»
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="redes" value="si" defaultChecked={footer.usaSocialNetwork} />
        Mostrar las redes sociales
      </label>
    </div>
  );
}

function SectionFields({
  section,
  shown,
  errors,
}: {
  section: SiteSection;
  shown: unknown;
  errors: Record<string, string>;
}) {
  if (section.editor === 'footer') return <FooterFields footer={shown as FooterBody} errors={errors} />;
  if (section.editor === 'whatsapp') {
    const whatsapp = shown as { whatsappNumber: string; isWhatsappWidgetEnabled: boolean };
    return (
      <div className="space-y-3">
        <label className="block text-sm">
          <span className="field-label">
            Número de WhatsApp (Chile: +56 9 1234 5678; internacional: +1 786 347 2210)
          </span>
          <input
            name="numero"
            defaultValue={whatsapp.whatsappNumber}
            className="field-input"
            inputMode="tel"
            aria-invalid={errors.whatsappNumber ? true : undefined}
          />
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="boton" value="si" defaultChecked={whatsapp.isWhatsappWidgetEnabled} />
          Mostrar el botón flotante de WhatsApp
        </label>
      </div>
    );
  }
  if (section.editor === 'flags') {
    const flags = shown as Record<string, boolean>;
    return (
      <fieldset className="space-y-2">
        <legend className="sr-only">Funciones de la tienda</legend>
        {Object.entries(flags).map(([flag, on]) => (
          <label key={flag} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={flag} value="si" defaultChecked={on} />
            {flagLabels[flag] ?? flag}
          </label>
        ))}
      </fieldset>
    );
  }
  const fields = structuredFields[section.kind];
  if (!fields) return null;
  return <ObjectFields fields={fields} value={shown as Record<string, unknown>} errors={errors} />;
}

export function SectionView({
  section,
  item,
  history,
  error,
  csrfToken,
  result,
  busy = false,
}: SectionData & { csrfToken: string; result?: PublishingResult | undefined; busy?: boolean }) {
  if (!section || !item) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <h1 id="titulo" className="text-xl font-semibold">
          {section?.label ?? 'El sitio'}
        </h1>
        <Notice tone="error">{error ?? 'No encontramos esta sección.'}</Notice>
        <Link to="/sitio" className="underline">
          Volver al sitio
        </Link>
      </section>
    );
  }
  const shown = item.draft?.body ?? item.live;
  const version = item.draft?.version ?? 0;
  const errors = result?.errors ?? {};
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <Link to="/sitio" className="text-sm underline">
          ← El sitio
        </Link>
        <h1 id="titulo" className="text-xl font-semibold">
          {section.label}
        </h1>
        <p className="text-sm text-slate-700">{section.description}</p>
        <DraftLine draft={item.draft} />
      </div>
      <ResultNotice result={result} />
      {error ? <Notice tone="error">{error}</Notice> : null}
      <ScheduledNotice scheduled={item.scheduled} canEdit csrfToken={csrfToken} busy={busy} />
      <Form
        method="post"
        className="space-y-4"
        aria-labelledby="editar"
        key={`${version}-${JSON.stringify(shown).length}`}
      >
        <h2 id="editar" className="text-lg font-semibold">
          Editar
        </h2>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        <SectionFields section={section} shown={shown} errors={errors} />
        <FieldErrorList errors={errors} />
        <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
          Guardar borrador
        </button>
      </Form>
      <DraftPublishHistory
        item={item}
        version={version}
        history={history}
        csrfToken={csrfToken}
        busy={busy}
        preview={section.preview}
      />
    </section>
  );
}

export default function SectionPage() {
  const { csrfToken } = useConsole();
  const busy = useNavigation().state !== 'idle';
  return (
    <SectionView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={busy}
    />
  );
}
