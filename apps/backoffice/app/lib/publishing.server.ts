import { type AppLoadContext, data } from 'react-router';
import type { PublishingResult } from '#app/components/Publishing.tsx';
import type { Publication } from '#app/features/prices.ts';
import { callApi } from './api.server.ts';
import { formText } from './form.server.ts';
import { formatDateTime } from './format.ts';

/** A refused action's answer, with the status the API gave. */
export const refused = (message: string, status: number, errors?: Record<string, string>) =>
  data<PublishingResult>({ ok: false, message, ...(errors ? { errors } : {}) }, status);

/** Saves a draft of the item at `base` (`/prices/411`, `/plans/411`) from the version the form was shown. */
export async function saveDraft(
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
    // A 400 names each field the API refused (`body.label`…): the operator reads why, not only «revisa».
    const reasons = answer.status === 400 ? answer.error.errors.map((error) => error.message) : [];
    return refused([answer.error.message, ...reasons].join(' '), answer.status);
  }
  return { ok: true, message: `Borrador guardado (versión ${answer.data.version}). Aún no se publica.` };
}

/**
 * The publishing model's actions, the same for every kind: preview link, publish (now or at a Chile time), cancel
 * the scheduled one, roll back. Undefined for any other intent (the screen's own).
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
    const baseVersion = Number(formText(form, 'version') || '0');
    const answer = await callApi<{ publication: Publication }>(context, request, `${base}/publish`, {
      method: 'POST',
      body: { baseVersion, ...(publishAt ? { publishAt } : {}) },
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
