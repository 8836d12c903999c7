import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
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
  type LegalPageBody,
  legalPageEditors,
  legalPageFromForm,
  legalPageOf,
  legalPagePath,
  legalPages,
} from '#app/features/legal-pages.ts';
import type { Publication, PublishingItem, PublishingResult } from '#app/features/publishing.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { publishingAction, refused, saveDraftOf } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/textos-legales';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Textos legales') }];

export type LegalPagesData = {
  page: (typeof legalPages)[number];
  item: PublishingItem<LegalPageBody> | null;
  history: Publication[];
  error?: string;
};

export async function loader({ request, context }: Route.LoaderArgs): Promise<LegalPagesData> {
  await requireOperator(context, request, legalPageEditors);
  const page = legalPageOf(new URL(request.url).searchParams.get('pagina'));
  const [item, history] = await Promise.all([
    callApi<PublishingItem<LegalPageBody>>(context, request, legalPagePath(page.slug)),
    callApi<{ publications: Publication[] }>(context, request, legalPagePath(page.slug, '/history')),
  ]);
  if (!item.ok) return { page, item: null, history: [], error: item.error.message };
  return { page, item: item.data, history: history.ok ? history.data.publications : [] };
}

/** Save the page's draft; publish (a new version), cancel, roll back (components/Publishing.tsx). */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, legalPageEditors);
  const page = legalPageOf(new URL(request.url).searchParams.get('pagina'));
  const form = await request.formData();
  const path = legalPagePath(page.slug);
  if (formText(form, 'intent') === 'guardar') return saveDraftOf(context, request, path, form, legalPageFromForm(form));
  return (
    (await publishingAction(context, request, path, form, {
      published: `${page.label}: nueva versión publicada. Quien compre desde ahora acepta esta versión.`,
      rolledBack: 'Listo: la tienda volvió a ese texto, como una nueva versión (queda en el historial).',
    })) ?? refused('Acción desconocida.', 400)
  );
}

const fieldNames: Record<string, string> = { title: 'Título', description: 'Descripción', bodyHtml: 'Texto' };

export function LegalPagesView({
  page,
  item,
  history,
  error,
  csrfToken,
  result,
  busy = false,
}: LegalPagesData & { csrfToken: string; result?: PublishingResult | undefined; busy?: boolean }) {
  const shown = item?.draft?.body ?? item?.live;
  const version = item?.draft?.version ?? 0;
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <h1 id="titulo" className="text-xl font-semibold">
          Textos legales
        </h1>
        <p className="text-sm text-slate-700">
          Cada publicación es una versión nueva que se guarda para siempre: la compra registra la versión que el
          comprador aceptó y «Mi compra» le muestra ese mismo texto. El texto acepta HTML simple (títulos, párrafos,
          listas, enlaces, negrita); lo demás se elimina al guardar.
        </p>
      </div>
      <nav aria-label="Páginas legales">
        <ul className="flex flex-wrap gap-2">
          {legalPages.map((other) => (
            <li key={other.slug}>
              <Link
                to={`?pagina=${other.slug}`}
                aria-current={other.slug === page.slug ? 'page' : undefined}
                className={other.slug === page.slug ? 'button-primary' : 'button-secondary'}
              >
                {other.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {!item || !shown ? (
        <Notice tone="error">{error ?? 'No pudimos cargar esta página legal.'}</Notice>
      ) : (
        <>
          <div>
            <h2 className="text-lg font-semibold">{page.label}</h2>
            <DraftLine draft={item.draft} />
          </div>
          <ResultNotice result={result} />
          <ScheduledNotice scheduled={item.scheduled} canEdit csrfToken={csrfToken} busy={busy} />
          <Form
            method="post"
            className="space-y-3"
            aria-label={`Borrador de ${page.label}`}
            key={`${page.slug}-${version}`}
          >
            <CsrfField token={csrfToken} />
            <input type="hidden" name="version" value={version} />
            <label className="block text-sm">
              <span className="field-label">Título</span>
              <input name="titulo" defaultValue={shown.title} className="field-input" required maxLength={120} />
            </label>
            <label className="block text-sm">
              <span className="field-label">Descripción (para buscadores, una oración)</span>
              <input
                name="descripcion"
                defaultValue={shown.description}
                className="field-input"
                required
                maxLength={300}
              />
            </label>
            <label className="block text-sm">
              <span className="field-label">Texto (HTML)</span>
              <textarea
                name="texto"
                defaultValue={shown.bodyHtml}
                className="field-input min-h-96 font-mono text-xs"
                required
              />
            </label>
            <FieldErrorList errors={result?.errors ?? {}} nameOf={(field) => fieldNames[field] ?? field} />
            <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
              Guardar borrador
            </button>
          </Form>
          <p className="text-sm">
            <a href={`/${page.slug}`} target="_blank" rel="noopener" className="underline">
              Ver la versión vigente en la tienda
            </a>
          </p>
          <DraftPublishHistory
            item={item}
            version={version}
            history={history}
            csrfToken={csrfToken}
            busy={busy}
            preview
          />
        </>
      )}
    </section>
  );
}

export default function LegalPagesScreen() {
  const { csrfToken } = useConsole();
  const busy = useNavigation().state !== 'idle';
  return (
    <LegalPagesView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={busy}
    />
  );
}
