import { previewLinkOf } from './preview.ts';

/** A page's console preview: its draft shown, a link that did not open (the live content shown), or none. */
export type PreviewState = 'draft' | 'invalid' | null;

/** The header a preview link's token is forwarded to the API in (`{}` without one). */
export type PreviewHeaders = { headers?: { 'x-vista-previa': string } };

type Answer = { response: Response };

/**
 * The API's answer(s) for a page opened by a console preview link (issue 25): the call is made with the link's token
 * forwarded; when the API refuses it (403: forged, expired, or another page's link; 400: not a token) the call is made
 * again without it, so the visitor sees the live content and the page says the link did not open. A value that cannot
 * be a token is not sent at all. Without a link: one plain call.
 */
export async function withPreviewFallback<T extends Answer | readonly Answer[]>(
  request: Request,
  call: (preview: PreviewHeaders) => Promise<T>,
): Promise<{ answer: T; preview: PreviewState }> {
  const link = previewLinkOf(request);
  if (link === null) return { answer: await call({}), preview: null };
  if (link.token === null) return { answer: await call({}), preview: 'invalid' };
  const previewed = await call({ headers: { 'x-vista-previa': link.token } });
  const answers: readonly Answer[] = Array.isArray(previewed) ? previewed : [previewed as Answer];
  const refused = answers.some((answer) => answer.response.status === 403 || answer.response.status === 400);
  if (!refused) return { answer: previewed, preview: 'draft' };
  return { answer: await call({}), preview: 'invalid' };
}
