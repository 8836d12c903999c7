import { newsletterSchema } from '@travesia/domain/rules';
import { data, redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { fieldErrors, type LoadContext, pageError, rateLimitedMessage } from '#app/lib/api-answer.server.ts';
import { safeReturnPath } from '#app/lib/safe-path.ts';
import { subscriptionPath } from './NewsletterForm.tsx';

/** What the subscription page shows after a refused post: the address as typed and its problem. */
export type NewsletterActionResult = { email: string; error?: string; returnTo: string };

/**
 * Subscribes the address a native post sent (the enhanced form calls the API from the browser): checked with the
 * API's own schema, then saved. Success redirects to the confirmation (the address never enters a URL); a refused
 * address renders the page again with its message; a failed call is only logged (spec §8), the address kept.
 */
export async function subscribeFromForm(context: LoadContext, request: Request) {
  let form: FormData | null = null;
  try {
    form = await request.formData();
  } catch {
    form = null;
  }
  const entered = form?.get('email');
  const email = typeof entered === 'string' ? entered : '';
  const back = form?.get('volver');
  const returnTo = safeReturnPath(typeof back === 'string' ? back : null);
  const parsed = newsletterSchema.safeParse({ email });
  if (!parsed.success) {
    return data<NewsletterActionResult>({ email, error: parsed.error.issues[0]?.message, returnTo }, { status: 400 });
  }
  const companyId = configuredCompanyId();
  const answer = await serverApi(context).POST('/companies/{companyId}/subscriptions', {
    params: { path: { companyId } },
    body: parsed.data,
  });
  if (answer.response.ok) {
    return redirect(`${subscriptionPath}?estado=suscrito&volver=${encodeURIComponent(returnTo)}`);
  }
  const { status } = answer.response;
  if (status === 400) {
    const error = fieldErrors(answer.error).find((e) => e.field === 'email')?.message;
    return data<NewsletterActionResult>({ email, error, returnTo }, { status });
  }
  console.warn(`Newsletter subscription failed with status ${status}`);
  return data<NewsletterActionResult>({ email, returnTo }, { status: status >= 500 ? 503 : status });
}

/** What the page of the e-mailed confirmation link shows. */
export type ConfirmationState = { confirmed: boolean };

/**
 * The confirmation link (`/suscripcion/confirmar?token=`): the API confirms the address. An unknown or expired token
 * is the page's «no válido o ya venció» with status 404; too many tries, or an API that fails, a 503 page.
 */
export async function confirmFromLink(context: LoadContext, request: Request) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  if (token === '' || token.length > 100) return data<ConfirmationState>({ confirmed: false }, { status: 404 });
  const answer = await serverApi(context).POST('/companies/{companyId}/subscriptions/confirmation', {
    params: { path: { companyId: configuredCompanyId() } },
    body: { token },
  });
  if (answer.response.ok) return data<ConfirmationState>({ confirmed: true });
  const { status } = answer.response;
  if (status === 404 || status === 400) return data<ConfirmationState>({ confirmed: false }, { status: 404 });
  if (status === 429) throw pageError(503, rateLimitedMessage);
  throw pageError(503, 'No pudimos confirmar tu suscripción. Intenta nuevamente en unos minutos.');
}

/** What the unsubscribe page shows: the question, the address gone, or a link that is not one of ours. */
export type UnsubscribeState = { state: 'ask' | 'done' | 'invalid' };

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? '';

/**
 * The unsubscribe link of the newsletter's e-mails (`/suscripcion/baja?token=`). Opening it only asks (a mail
 * scanner that follows links must not unsubscribe anyone); the page's button, or a mail client's one-click post
 * (RFC 8058: a POST to the same address, body `List-Unsubscribe=One-Click`), unsubscribes through the API.
 */
export function askToUnsubscribe(request: Request) {
  const token = tokenOf(request);
  if (token === '' || token.length > 100) return data<UnsubscribeState>({ state: 'invalid' }, { status: 404 });
  return data<UnsubscribeState>({ state: 'ask' });
}

export async function unsubscribeFromLink(context: LoadContext, request: Request) {
  const token = tokenOf(request);
  if (token === '' || token.length > 100) return data<UnsubscribeState>({ state: 'invalid' }, { status: 404 });
  const answer = await serverApi(context).POST('/companies/{companyId}/subscriptions/unsubscribe', {
    params: { path: { companyId: configuredCompanyId() } },
    body: { token },
  });
  if (answer.response.ok) return data<UnsubscribeState>({ state: 'done' });
  const { status } = answer.response;
  if (status === 404 || status === 400) return data<UnsubscribeState>({ state: 'invalid' }, { status: 404 });
  if (status === 429) throw pageError(503, rateLimitedMessage);
  throw pageError(503, 'No pudimos darte de baja. Intenta nuevamente en unos minutos.');
}
