import { data, Form, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { DraftChanges, PublicationHistory, PublishSection, ResultNotice } from '#app/components/Publishing.tsx';
import {
  answerField,
  applyEdit,
  categoryField,
  type FaqBody,
  type FaqItem,
  faqEditors,
  faqFromForm,
  questionField,
} from '#app/features/faq.ts';
import type { Publication } from '#app/features/publishing.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { publishingAction, refused } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/preguntas-frecuentes';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Preguntas frecuentes') }];

export type FaqData = { item: FaqItem | null; history: Publication[]; error?: string };
export type FaqResult = { ok: boolean; message: string; body?: FaqBody; version?: number; previewUrl?: string };

const base = '/faq/faq';

export async function loader({ request, context }: Route.LoaderArgs): Promise<FaqData> {
  await requireOperator(context, request, faqEditors);
  const [item, history] = await Promise.all([
    callApi<FaqItem>(context, request, base),
    callApi<{ publications: Publication[] }>(context, request, `${base}/history`),
  ]);
  if (!item.ok) return { item: null, history: [], error: item.error.message };
  return { item: item.data, history: history.ok ? history.data.publications : [] };
}

/**
 * Save (any editing button: move up or down, add, remove, or «Guardar borrador»), publish, roll back. Moving saves
 * the draft at once, so the order the page shows is always the draft's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const csrfToken = formText(form, 'csrf');
  const intent = formText(form, 'intent');
  const baseVersion = Number(formText(form, 'version') || '0');
  if (intent === 'guardar' || intent.includes(':') || intent === 'agregar-categoria') {
    const body = applyEdit(faqFromForm(form), intent);
    // An added empty question or category is kept on the page only: the API refuses blank fields.
    if (intent.startsWith('agregar')) return { ok: true, message: 'Completa el nuevo campo y guarda.', body };
    const answer = await callApi<{ version: number }>(context, request, `${base}/draft`, {
      method: 'PUT',
      body: { body, baseVersion },
      csrfToken,
    });
    if (!answer.ok) return data<FaqResult>({ ok: false, message: answer.error.message, body }, answer.status);
    return { ok: true, message: `Borrador guardado (versión ${answer.data.version}). Aún no se publica.` };
  }
  return (
    (await publishingAction(context, request, base, form, {
      published: 'Preguntas frecuentes publicadas: la tienda ya las muestra.',
      rolledBack: 'Listo: la tienda volvió a esa versión (queda en el historial).',
    })) ?? refused('Acción desconocida.', 400)
  );
}

function MoveButtons({ edit, label, first, last }: { edit: string; label: string; first: boolean; last: boolean }) {
  return (
    <span className="flex gap-1">
      <button type="submit" name="intent" value={`subir:${edit}`} className="button-secondary" disabled={first}>
        Subir<span className="sr-only"> {label}</span>
      </button>
      <button type="submit" name="intent" value={`bajar:${edit}`} className="button-secondary" disabled={last}>
        Bajar<span className="sr-only"> {label}</span>
      </button>
    </span>
  );
}

export function FaqView({
  item,
  history,
  error,
  csrfToken,
  result,
  busy = false,
}: FaqData & { csrfToken: string; result?: FaqResult | undefined; busy?: boolean }) {
  if (!item) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <h1 id="titulo" className="text-xl font-semibold">
          Preguntas frecuentes
        </h1>
        <Notice tone="error">{error ?? 'No pudimos cargar las preguntas frecuentes.'}</Notice>
      </section>
    );
  }
  const shown = result?.body ?? item.draft?.body ?? item.live;
  const version = item.draft?.version ?? 0;
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <h1 id="titulo" className="text-xl font-semibold">
          Preguntas frecuentes
        </h1>
        <p className="text-sm text-slate-700">
          {item.draft
            ? `Borrador versión ${item.draft.version}, guardado por ${item.draft.updatedBy} el ${formatDateTime(item.draft.updatedAt)}.`
            : 'Sin borrador: se muestran las preguntas publicadas.'}{' '}
          Las respuestas aceptan HTML simple (párrafos, listas, enlaces, negrita); lo demás se elimina al guardar.
        </p>
      </div>
      <ResultNotice result={result} />
      {item.scheduled ? (
        <Notice tone="info">
          Publicación programada para el {item.scheduled.publishAtChile.replace('T', ' a las ')} (hora de Chile) por{' '}
          {item.scheduled.createdBy}.
        </Notice>
      ) : null}

      <Form method="post" className="space-y-4" aria-label="Borrador de preguntas frecuentes">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        {shown.categories.map((category, i) => (
          <fieldset
            // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity (names may be blank or repeated while editing)
            key={`${i}-${category.name}`}
            className="space-y-3 rounded border border-slate-300 bg-white p-3"
          >
            <legend className="px-1 font-semibold">Categoría {i + 1}</legend>
            <div className="flex flex-wrap items-end gap-2">
              <label className="block grow text-sm">
                <span className="field-label">Nombre de la categoría</span>
                <input name={categoryField(i)} defaultValue={category.name} className="field-input" required />
              </label>
              <MoveButtons
                edit={String(i)}
                label={`la categoría ${category.name || i + 1}`}
                first={i === 0}
                last={i === shown.categories.length - 1}
              />
            </div>
            <ol className="space-y-3">
              {category.questions.map((entry, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity while editing
                <li key={`${j}-${entry.question}`} className="space-y-2 border-t border-slate-200 pt-3">
                  <label className="block text-sm">
                    <span className="field-label">Pregunta {j + 1}</span>
                    <input name={questionField(i, j)} defaultValue={entry.question} className="field-input" />
                  </label>
                  <label className="block text-sm">
                    <span className="field-label">Respuesta (HTML)</span>
                    <textarea
                      name={answerField(i, j)}
                      defaultValue={entry.answer}
                      rows={4}
                      className="field-input font-mono text-xs"
                    />
                  </label>
                  <div className="flex flex-wrap gap-1">
                    <MoveButtons
                      edit={`${i}:${j}`}
                      label={`la pregunta «${entry.question || j + 1}»`}
                      first={j === 0}
                      last={j === category.questions.length - 1}
                    />
                    <button type="submit" name="intent" value={`quitar:${i}:${j}`} className="button-secondary">
                      Quitar<span className="sr-only"> la pregunta «{entry.question || j + 1}»</span>
                    </button>
                  </div>
                </li>
              ))}
            </ol>
            <button type="submit" name="intent" value={`agregar-pregunta:${i}`} className="button-secondary">
              Agregar pregunta<span className="sr-only"> a {category.name || `la categoría ${i + 1}`}</span>
            </button>
          </fieldset>
        ))}
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
            Guardar borrador
          </button>
          <button type="submit" name="intent" value="agregar-categoria" className="button-secondary">
            Agregar categoría
          </button>
        </div>
      </Form>

      <DraftChanges changes={item.changes} />

      {item.draft ? <PublishSection version={version} csrfToken={csrfToken} busy={busy} preview /> : null}

      <PublicationHistory history={history} canEdit csrfToken={csrfToken} busy={busy} />
    </section>
  );
}

export default function FaqPage() {
  const { csrfToken } = useConsole();
  const busy = useNavigation().state !== 'idle';
  return (
    <FaqView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={busy}
    />
  );
}
