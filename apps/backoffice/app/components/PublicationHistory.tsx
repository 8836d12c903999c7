import { Form } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { type Publication, publicationStatusLabels } from '#app/features/prices.ts';

/**
 * The history of a publishing-model item (issue 25: prices, FAQ…): each publication with its readable diff and, for
 * editors, the rollback buttons (back to what it replaced, or to this version). The screen's action handles the
 * `volver` intent.
 */
export function PublicationHistory({
  history,
  canEdit,
  csrfToken,
  busy,
  noChanges,
  backLabel,
}: {
  history: Publication[];
  canEdit: boolean;
  csrfToken: string;
  busy: boolean;
  /** What a publication without changes says («Sin cambios de precio.»). */
  noChanges: string;
  /** The button that undoes a publication («Volver a los precios anteriores»). */
  backLabel: string;
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
                <p className="mt-1 text-slate-700">{noChanges}</p>
              )}
              {canEdit && publication.status === 'published' ? (
                <div className="mt-2 flex flex-wrap gap-2">
                  <Form method="post">
                    <CsrfField token={csrfToken} />
                    <input type="hidden" name="intent" value="volver" />
                    <input type="hidden" name="publicacion" value={publication.id} />
                    <input type="hidden" name="a" value="before" />
                    <button type="submit" className="button-secondary" disabled={busy}>
                      {backLabel}
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

/** «Publicar» now or at a Chile date and time, from the draft's `version` (the screen's action: publishingAction). */
export function PublishForm({ csrfToken, version, busy }: { csrfToken: string; version: number; busy: boolean }) {
  return (
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
  );
}

/** «Qué cambia el borrador»: the draft's readable diff against what is live (nothing when it changes nothing). */
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
