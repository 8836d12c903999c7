import { Form } from 'react-router';
import { type Publication, type PublishingResult, publicationStatusLabels } from '#app/features/publishing.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { CsrfField } from './fields.tsx';
import { Notice } from './Notice.tsx';

/**
 * The parts every publishing screen shares (issue 25, ADR 019: «Precios», «Planes», «El sitio»): the answer of the last
 * action (with its preview link), the fields a refused draft names, the scheduled publication and its cancel button,
 * «Vista previa y publicación», and the history with a readable diff per publication and its two rollbacks.
 */
export function ResultNotice({ result }: { result: PublishingResult | undefined }) {
  if (!result) return null;
  return (
    <Notice tone={result.ok ? 'success' : 'error'}>
      {result.message}
      {result.previewUrl ? (
        <>
          {' '}
          <a href={result.previewUrl} target="_blank" rel="noreferrer" className="font-semibold underline">
            Abrir la vista previa
          </a>
        </>
      ) : null}
    </Notice>
  );
}

export function ScheduledNotice({
  scheduled,
  canEdit,
  csrfToken,
  busy,
}: {
  scheduled: Publication | null;
  canEdit: boolean;
  csrfToken: string;
  busy: boolean;
}) {
  if (!scheduled) return null;
  return (
    <Notice tone="info">
      Publicación programada para el {scheduled.publishAtChile.replace('T', ' a las ')} (hora de Chile) por{' '}
      {scheduled.createdBy}.
      {canEdit ? (
        <Form method="post" className="mt-2">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="intent" value="cancelar-programada" />
          <button type="submit" className="button-secondary" disabled={busy}>
            Cancelar la publicación programada
          </button>
        </Form>
      ) : null}
    </Notice>
  );
}

/** «Qué cambia el borrador»: the API's readable diff of the draft against what is live. */
export function DraftChanges({ changes }: { changes: string[] }) {
  if (changes.length === 0) return null;
  return (
    <section aria-labelledby="cambios" className="space-y-2">
      <h2 id="cambios" className="text-lg font-semibold">
        Qué cambia el borrador
      </h2>
      <ul className="list-disc pl-5 text-sm break-words">
        {changes.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

export function PublishSection({
  version,
  csrfToken,
  busy,
  preview,
}: {
  version: number;
  csrfToken: string;
  busy: boolean;
  /** Whether the kind has a preview link on the store. */
  preview: boolean;
}) {
  return (
    <section aria-labelledby="publicar" className="space-y-3">
      <h2 id="publicar" className="text-lg font-semibold">
        {preview ? 'Vista previa y publicación' : 'Publicación'}
      </h2>
      {preview ? (
        <Form method="post">
          <CsrfField token={csrfToken} />
          <input type="hidden" name="intent" value="vista-previa" />
          <button type="submit" className="button-secondary" disabled={busy}>
            Crear enlace de vista previa
          </button>
        </Form>
      ) : null}
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        <label className="block text-sm">
          <span className="field-label">Publicar el (hora de Chile; vacío: ahora)</span>
          <input type="datetime-local" name="publicar-el" className="field-input" />
        </label>
        <button type="submit" name="intent" value="publicar" className="button-primary" disabled={busy}>
          Publicar
        </button>
      </Form>
    </section>
  );
}

export function PublicationHistory({
  history,
  canEdit,
  csrfToken,
  busy,
  words = { noChanges: 'Sin cambios.', backToBefore: 'Volver a la versión anterior' },
}: {
  history: Publication[];
  canEdit: boolean;
  csrfToken: string;
  busy: boolean;
  /** The screen's words when not the general ones («Precios»: «Sin cambios de precio.», «Volver a los precios anteriores»). */
  words?: { noChanges: string; backToBefore: string };
}) {
  return (
    <section aria-labelledby="historial" className="space-y-2">
      <h2 id="historial" className="text-lg font-semibold">
        Historial
      </h2>
      {history.length === 0 ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">Aún no hay publicaciones.</p>
      ) : (
        <ol className="space-y-3">
          {history.map((publication) => (
            <li key={publication.id} className="rounded border border-slate-300 bg-white p-3 text-sm break-words">
              <p className="font-semibold">
                {publicationStatusLabels[publication.status]}
                {publication.rollbackOf ? ` (vuelta atrás a la publicación ${publication.rollbackOf})` : ''} ·{' '}
                {publication.publishAtChile.replace('T', ' ')} · {publication.createdBy}
                <span className="font-normal text-slate-700"> · n.º {publication.id}</span>
              </p>
              {publication.changes.length > 0 ? (
                <ul className="mt-1 list-disc pl-5">
                  {publication.changes.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : (
                <p className="mt-1 text-slate-700">{words.noChanges}</p>
              )}
              {canEdit && publication.status === 'published' ? (
                <div className="mt-2 flex flex-wrap gap-2">
                  <Form method="post">
                    <CsrfField token={csrfToken} />
                    <input type="hidden" name="intent" value="volver" />
                    <input type="hidden" name="publicacion" value={publication.id} />
                    <input type="hidden" name="a" value="before" />
                    <button type="submit" className="button-secondary" disabled={busy}>
                      {words.backToBefore}
                      <span className="sr-only"> a la publicación {publication.id}</span>
                    </button>
                  </Form>
                  <Form method="post">
                    <CsrfField token={csrfToken} />
                    <input type="hidden" name="intent" value="volver" />
                    <input type="hidden" name="publicacion" value={publication.id} />
                    <input type="hidden" name="a" value="after" />
                    <button type="submit" className="button-secondary" disabled={busy}>
                      Volver a esta versión<span className="sr-only"> (publicación {publication.id})</span>
                    </button>
                  </Form>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Who saved the draft and when, or that the live item is shown. */
export function DraftLine({ draft }: { draft: { version: number; updatedBy: string; updatedAt: string } | null }) {
  return (
    <p className="text-sm text-slate-700">
      {draft
        ? `Borrador versión ${draft.version}, guardado por ${draft.updatedBy} el ${formatDateTime(draft.updatedAt)}.`
        : 'Sin borrador: se muestra lo publicado.'}
    </p>
  );
}

/**
 * Why a draft was refused, one line per field: the API's body paths (`menus.0.items.1.href`, saveDraftOf) or the
 * screen's own, each named by `nameOf(field)` (`contenido`: the body as a whole). A screen passes those it does not
 * already show beside their field.
 */
export function FieldErrorList({
  errors,
  nameOf = (field) => field,
}: {
  errors: Record<string, string>;
  nameOf?: (field: string) => string;
}) {
  if (Object.keys(errors).length === 0) return null;
  return (
    <ul className="text-sm text-red-800 break-words" aria-label="Errores">
      {Object.entries(errors).map(([field, message]) => (
        <li key={field}>
          {field === 'contenido' ? '' : `${nameOf(field)}: `}
          {message}
        </li>
      ))}
    </ul>
  );
}

/** Below a kind's form: what the draft changes, «Publicar» (with the preview link when the kind has one), history. */
export function DraftPublishHistory({
  item,
  version,
  history,
  csrfToken,
  busy,
  preview,
}: {
  item: { changes: string[]; draft: unknown };
  version: number;
  history: Publication[];
  csrfToken: string;
  busy: boolean;
  preview: boolean;
}) {
  return (
    <>
      <DraftChanges changes={item.changes} />
      {item.draft ? <PublishSection version={version} csrfToken={csrfToken} busy={busy} preview={preview} /> : null}
      <PublicationHistory
        history={history}
        canEdit
        csrfToken={csrfToken}
        busy={busy}
        words={{ noChanges: 'Sin cambios.', backToBefore: 'Volver a la versión anterior' }}
      />
    </>
  );
}
