import type { Middleware } from 'openapi-fetch';
import { data } from 'react-router';
import type { components } from './api-schema.d.ts';

/**
 * The one place that turns an API answer (what openapi-fetch hands back) into what a loader or an action returns:
 * the data, a page-level error response (404 or 503, caught by the error boundary), or a form failure with its
 * field errors by form field and its messages for the whole form.
 */

/** What every loader and action receives from the server that renders it (see lib/api.ts). */
export type LoadContext = { apiFetch?: typeof fetch } | undefined;

export type FieldError = components['schemas']['ErrorBody']['errors'][number];

/** What openapi-fetch answers for any call. */
export type ApiAnswer<T> = { data?: T; error?: unknown; response: Response };

/** Shown when the API (or the database behind it) cannot answer: never a blank page. */
export const unavailableMessage = 'No pudimos completar tu solicitud. Intenta nuevamente en unos minutos.';
export const rateLimitedMessage = 'Has realizado demasiadas solicitudes. Espera un momento e intenta nuevamente.';

/**
 * An API that cannot be reached (refused, reset, timed out: openapi-fetch's fetch throws) answers like an API that
 * is there but unavailable: a 503 with the spec §8 body. `serverApi()` installs it, so every loader and action sees
 * an answer, never a thrown fetch, and the helpers below turn it into the «no disponible» page or form message.
 */
export const unreachableAsUnavailable: Middleware = {
  onError() {
    const body = { status: 503, detail: 'An unexpected server error occurred', instance: '', errors: [] };
    return new Response(JSON.stringify(body), { status: 503, headers: { 'content-type': 'application/json' } });
  },
};

/** What a page-level error carries: a sentence for the visitor. */
export type PageErrorData = { message: string };

/**
 * A page-level error: thrown from a loader, the root's error boundary shows it in words (components/PageError.tsx)
 * with `message`, a sentence for the visitor.
 */
export function pageError(status: 404 | 503, message: string) {
  return data<PageErrorData>({ message }, { status });
}

/** «Los planes» → «los planes», to sit inside a sentence. */
const inSentence = (what: string) => what.charAt(0).toLocaleLowerCase('es-CL') + what.slice(1);

/**
 * The data of an answer a page cannot do without. A 404 (or a 400 for a malformed id) throws a «not found» page,
 * anything else a 503 page; both name `what`, a noun with its article («Los planes», «La cotización»).
 */
export function dataOrThrow<T>(answer: ApiAnswer<T>, what: string): T {
  if (answer.data !== undefined && answer.response.ok) return answer.data;
  const { status } = answer.response;
  if (status === 404 || status === 400) throw pageError(404, `No encontramos ${inSentence(what)}.`);
  throw pageError(503, `No pudimos cargar ${inSentence(what)}.`);
}

/** Like `dataOrThrow`, for what may not exist yet (the travellers or the billing saved so far): a 404 is null. */
export function dataOrNull<T>(answer: ApiAnswer<T>, what: string): T | null {
  return answer.response.status === 404 ? null : dataOrThrow(answer, what);
}

/** The `{ field, code, message }` list of an API error body, whatever shape openapi-fetch handed it over in. */
export function fieldErrors(error: unknown): FieldError[] {
  if (typeof error === 'string') {
    try {
      return fieldErrors(JSON.parse(error));
    } catch {
      return [];
    }
  }
  const errors = (error as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors)
    ? errors.filter(
        (e): e is FieldError =>
          typeof e?.field === 'string' && typeof e?.code === 'string' && typeof e?.message === 'string',
      )
    : [];
}

/** What an action answers when the API refuses the data: messages by form field, and for the whole form. */
export type FormFailure = { errors: FieldError[]; formErrors: string[] };

/**
 * Splits the API's field errors into those a form field can show (renamed by `toField`, null when no field
 * matches) and those for the whole form.
 */
export function splitErrors(errors: FieldError[], toField: (apiField: string) => string | null): FormFailure {
  const byField: FieldError[] = [];
  const formErrors: string[] = [];
  for (const error of errors) {
    const field = toField(error.field);
    if (field) byField.push({ ...error, field });
    else if (!formErrors.includes(error.message)) formErrors.push(error.message);
  }
  return { errors: byField, formErrors };
}

export type FormOutcome<T> = { ok: true; data: T } | { ok: false; status: number; failure: FormFailure };

type FormOptions = {
  /** The form field that shows an API field's error (null: the whole form shows it). Identity by default. */
  toField?: (apiField: string) => string | null;
  /** The whole-form message when the API refused the data without naming why. */
  invalidMessage?: string;
  /** The whole-form message of a 404 (the thing the form acts on does not exist). */
  notFoundMessage?: string;
  /** The whole-form message when the API could not answer (5xx, unreachable). */
  unavailableMessage?: string;
};

/**
 * The outcome of a form's API call: the data, or a failure to answer with `formFailure` — the field errors of a
 * 400/409/422, a 404 message, the rate-limit message of a 429, or «try again» (status 503) for anything else.
 */
export function formOutcome<T>(answer: ApiAnswer<T>, options: FormOptions = {}): FormOutcome<T> {
  const { response } = answer;
  if (response.ok) return { ok: true, data: answer.data as T };
  const { status } = response;
  if (status === 400 || status === 409 || status === 422) {
    const failure = splitErrors(fieldErrors(answer.error), options.toField ?? ((field) => field));
    if (failure.errors.length === 0 && failure.formErrors.length === 0) {
      failure.formErrors.push(options.invalidMessage ?? 'Revisa los datos ingresados.');
    }
    return { ok: false, status, failure };
  }
  if (status === 404) {
    return { ok: false, status, failure: { errors: [], formErrors: [options.notFoundMessage ?? 'No encontrado.'] } };
  }
  if (status === 429) return { ok: false, status, failure: { errors: [], formErrors: [rateLimitedMessage] } };
  const message = options.unavailableMessage ?? unavailableMessage;
  return { ok: false, status: 503, failure: { errors: [], formErrors: [message] } };
}

/** An action's answer for a failed form, with the status the API gave (so a no-JS post shows the right page). */
export function formFailure(failure: FormFailure, status: number) {
  return data(failure, { status });
}
