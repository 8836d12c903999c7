import type { AppLoadContext } from 'react-router';
import type { Publication } from '#app/features/prices.ts';
import { callApi } from './api.server.ts';
import { formText } from './form.server.ts';

export type PublishingOutcome = { ok: boolean; message: string; status: number };

/**
 * The publishing model's two actions every publishing screen shares (issue 25: «Precios», «Preguntas frecuentes»):
 * `publicar` (now, or at the Chile time in `publicar-el`, from the posted `version`) and `volver` (rollback to
 * `publicacion`, side `a`). Answers undefined for any other intent; `published` and `rolledBack` are the screen's words.
 */
export async function publishingAction(
  context: AppLoadContext,
  request: Request,
  base: string,
  form: FormData,
  words: { published: string; rolledBack: string },
): Promise<PublishingOutcome | undefined> {
  const intent = formText(form, 'intent');
  const csrfToken = formText(form, 'csrf');
  if (intent === 'publicar') {
    const publishAt = formText(form, 'publicar-el');
    const baseVersion = Number(formText(form, 'version') || '0');
    const answer = await callApi<{ publication: Publication }>(context, request, `${base}/publish`, {
      method: 'POST',
      body: { baseVersion, ...(publishAt ? { publishAt } : {}) },
      csrfToken,
    });
    if (!answer.ok) return { ok: false, message: answer.error.message, status: answer.status };
    const { publication } = answer.data;
    return {
      ok: true,
      status: 200,
      message:
        publication.status === 'scheduled'
          ? `Publicación programada para el ${publication.publishAtChile.replace('T', ' a las ')} (hora de Chile).`
          : words.published,
    };
  }
  if (intent === 'volver') {
    const publicationId = Number(formText(form, 'publicacion'));
    const to = formText(form, 'a') === 'before' ? 'before' : 'after';
    const answer = await callApi(context, request, `${base}/rollback`, {
      method: 'POST',
      body: { publicationId, to },
      csrfToken,
    });
    if (!answer.ok) return { ok: false, message: answer.error.message, status: answer.status };
    return { ok: true, status: 200, message: words.rolledBack };
  }
  return undefined;
}
