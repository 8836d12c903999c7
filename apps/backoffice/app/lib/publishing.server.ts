import { type AppLoadContext, data } from 'react-router';
import type { Publication, PublishingResult } from '#app/features/publishing.ts';
import { callApi } from './api.server.ts';
import { formText } from './form.server.ts';
import { formatDateTime } from './format.ts';

export const refused = (message: string, status: number, errors?: Record<string, string>) =>
  data<PublishingResult>({ ok: false, message, ...(errors ? { errors } : {}) }, status);

/** Saves `body` as the item's draft from the version the form showed; a stale save is refused in the API's words. */
export async function saveDraftOf(
  context: AppLoadContext,
  request: Request,
  base: string,
  form: FormData,
  body: unknown,
) {
  const answer = await callApi<{ version: number }>(context, request, `${base}/draft`, {
    method: 'PUT',
    body: { body, baseVersion: Number(formText(form, 'version') || '0') },
    csrfToken: formText(form, 'csrf'),
  });
  if (!answer.ok) {
    // The API names each bad field of the body (body.menus.0.items.1.href): the screen lists them.
    const errors = Object.fromEntries(
      answer.error.errors
        .filter((error) => error.field?.startsWith('body'))
        .map((error) => [(error.field ?? '').replace(/^body\.?/, '') || 'contenido', error.message]),
    );
    return refused(answer.error.message, answer.status, Object.keys(errors).length > 0 ? errors : undefined);
  }
  return { ok: true, message: `Borrador guardado (versión ${answer.data.version}). Aún no se publica.` };
}

/**
 * The publishing intents every kind's screen shares — preview link, publish now or at a Chile time, cancel what is
 * scheduled, roll back — or undefined for another intent (the screen's own: saving its form).
 */
export async function publishingAction(
  context: AppLoadContext,
  request: Request,
  base: string,
  form: FormData,
  words: { published: string; rolledBack: string },
) {
  const csrfToken = formText(form, 'csrf');
  const intent = formText(form, 'intent');
  if (intent === 'vista-previa') {
    const answer = await callApi<{ url: string; expiresAt: string }>(context, request, `${base}/preview-link`, {
      method: 'POST',
      csrfToken,
    });
    if (!answer.ok) return refused(answer.error.message, answer.status);
    return {
      ok: true,
      message: `Enlace de vista previa listo; vale hasta ${formatDateTime(answer.data.expiresAt)}.`,
      previewUrl: answer.data.url,
    };
  }
  if (intent === 'publicar') {
    const publishAt = formText(form, 'publicar-el');
    const answer = await callApi<{ publication: Publication }>(context, request, `${base}/publish`, {
      method: 'POST',
      body: { baseVersion: Number(formText(form, 'version') || '0'), ...(publishAt ? { publishAt } : {}) },
      csrfToken,
    });
    if (!answer.ok) return refused(answer.error.message, answer.status);
    const { publication } = answer.data;
    return {
      ok: true,
      message:
        publication.status === 'scheduled'
          ? `Publicación programada para el ${publication.publishAtChile.replace('T', ' a las ')} (hora de Chile).`
          : words.published,
    };
  }
  if (intent === 'cancelar-programada') {
    const answer = await callApi(context, request, `${base}/scheduled`, { method: 'DELETE', csrfToken });
    if (!answer.ok) return refused(answer.error.message, answer.status);
    return { ok: true, message: 'Publicación programada cancelada.' };
  }
  if (intent === 'volver') {
    const publicationId = Number(formText(form, 'publicacion'));
    const to = formText(form, 'a') === 'before' ? 'before' : 'after';
    const answer = await callApi(context, request, `${base}/rollback`, {
      method: 'POST',
      body: { publicationId, to },
      csrfToken,
    });
    if (!answer.ok) return refused(answer.error.message, answer.status);
    return { ok: true, message: words.rolledBack };
  }
  return undefined;
}
