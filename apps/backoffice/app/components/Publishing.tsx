import { Form } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { type Publication, publicationStatusLabels } from '#app/features/prices.ts';

/**
 * The publishing model's screens (issue 25, ADR 019), the same for every kind («Precios», «Planes»…): what an action
 * answered (with the preview link), the scheduled publication, preview and publish, and the history with rollback.
 * The actions are lib/publishing.server.ts's.
 */

export type PublishingResult = { ok: boolean; message: string; previewUrl?: string; errors?: Record<string, string> };

export function ResultNotice({ result }: { result?: PublishingResult | undefined }) {
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

/** What the saved draft changes against what is live, one line each (the kind's `describe`). */
export function DraftChanges({ changes }: { changes: string[] }) {
  if (changes.length === 0) return null;
  return (
    <section aria-labelledby="cambios" className="space-y-2">
      <h2 id="cambios" className="text-lg font-semibold">
        Qué cambia el borrador
      </h2>
      <ul className="list-disc pl-5 text-sm">
        {changes.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

type Controls = { canEdit: boolean; csrfToken: string; busy: boolean };

export function ScheduledNotice({ scheduled, canEdit, csrfToken, busy }: Controls & { scheduled: Publication | null }) {
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

/** Preview link and publish (now or at a Chile time), for a saved draft. */
export function PublishSection({ csrfToken, busy, version }: Omit<Controls, 'canEdit'> & { version: number }) {
  return (
    <section aria-labelledby="publicar" className="space-y-3">
      <h2 id="publicar" className="text-lg font-semibold">
        Vista previa y publicación
      </h2>
      <Form method="post">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="intent" value="vista-previa" />
        <button type="submit" className="button-secondary" disabled={busy}>
          Crear enlace de vista previa
        </button>
      </Form>
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

/** The item's publications, newest first, each with its diff and, for editors, the two ways back. */
export function HistorySection({
  history,
  canEdit,
  csrfToken,
  busy,
  words,
}: Controls & { history: Publication[]; words: { before: string; noChanges: string } }) {
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
            <li key={publication.id} className="rounded border border-slate-300 bg-white p-3 text-sm">
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
                      {words.before}
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
