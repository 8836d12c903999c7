import { fieldErrorsOf } from '@travesia/domain/field-errors';
import {
  documentFileProblem,
  normaliseRequestNumber,
  type RefundCurrency,
  refundDocuments,
  refundLimits,
  refundRequestSchema,
} from '@travesia/domain/refunds';
import { data } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import {
  type FieldError,
  type FormFailure,
  formOutcome,
  type LoadContext,
  unavailableMessage,
} from '#app/lib/api-answer.server.ts';
import type { components } from '#app/lib/api-schema.d.ts';

export type ClaimTracking = components['schemas']['RefundTracking'];
type ClaimBody = components['schemas']['RefundRequest'];
type UploadedDocument = { nombre: string; contenido: string } | { token: string };

/**
 * The documents of this post, already streamed to the document store by the server's route in front of the claim
 * pages (apps/api/src/web.ts refundPagePaths): their upload tokens and the problems found, or why none were read.
 * Set by the server in the load context, never read from the visitor's body.
 */
type ClaimPageUploads =
  | { tokens: string[]; errors: FieldError[]; fileCount: number }
  | { refused: { status: number; message: string; retryAfterSeconds: number } };

const pageUploadsOf = (context: LoadContext) =>
  (context as { refundUploads?: ClaimPageUploads } | undefined)?.refundUploads;

/**
 * The documents the action names in its call: the streamed uploads' tokens, or (a page served without that route, as
 * in development) the chosen files inline, checked here by the domain's rule too.
 */
async function documentsOf(context: LoadContext, form: FormData) {
  const uploads = pageUploadsOf(context);
  if (uploads && !('refused' in uploads)) {
    return {
      documents: uploads.tokens.map((token) => ({ token })) as UploadedDocument[],
      errors: uploads.errors,
      fileCount: uploads.fileCount,
    };
  }
  const files = chosenFiles(form, 'documentos');
  const encoded = await encodeFiles(files, 'documentos');
  return { ...encoded, fileCount: files.length };
}

/** A post the server did not read for the caps on uploads in flight: 429 or 503, and when to try again. */
function refusedUploads(context: LoadContext) {
  const uploads = pageUploadsOf(context);
  return uploads && 'refused' in uploads ? uploads.refused : undefined;
}

const retryAfter = (seconds: number): Record<string, string> => (seconds > 0 ? { 'Retry-After': String(seconds) } : {});

/** The documents' own problems replace the list's «at least one» (a chosen file that was refused is not «none»). */
const withoutListErrors = (errors: FieldError[], fileErrors: FieldError[]) =>
  fileErrors.length > 0 ? errors.filter((error) => error.field !== 'documentos') : errors;

/** The text fields of the form, as the API names them (the form's inputs carry these names). */
const textFields = [
  'nombreTitular',
  'tipoDocumento',
  'numeroDocumento',
  'email',
  'telefono',
  'numeroCertificado',
  'descripcion',
  'fechaIncidente',
  'monto',
  'moneda',
  'banco',
  'tipoCuenta',
  'numeroCuenta',
] as const;

export type ClaimFormValues = Partial<Record<(typeof textFields)[number], string>>;

/** A failed form's answer with the status the API gave (formFailure's, keeping this form's own fields). */
const formFailure = <T>(value: T, status: number) => data(value, { status });

export type ClaimActionData = { ok: true; number: string } | (FormFailure & { ok: false; values: ClaimFormValues });

/**
 * An amount as people type it in Chile: `185.000`, `$185.000`, `85,50`, `85.50` (USD). Anything that is not a
 * number is handed over as typed, so the rule says what is wrong with it.
 */
export function parseAmount(typed: string, currency: string): number | string {
  const compact = typed.replace(/[\s$]|US/g, '');
  if (compact === '') return typed;
  let normal = compact;
  if (compact.includes(',')) normal = compact.replace(/\./g, '').replace(',', '.');
  else if (currency !== 'USD' || /^\d{1,3}(\.\d{3})+$/.test(compact)) normal = compact.replace(/\./g, '');
  return /^\d+(\.\d+)?$/.test(normal) ? Number(normal) : typed;
}

/** The files of a multipart field that hold something (a file input left empty sends an empty part). */
function chosenFiles(form: FormData, name: string): File[] {
  return form.getAll(name).filter((value): value is File => typeof value !== 'string' && value.size > 0);
}

/** The files as the API takes them, and each problem the domain's rule finds (the API checks again). */
async function encodeFiles(files: File[], field: string) {
  const documents: UploadedDocument[] = [];
  const errors: FieldError[] = [];
  for (const [index, file] of files.entries()) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const problem = documentFileProblem(file.name, bytes);
    if (problem) errors.push({ field: `${field}.${index}`, ...problem });
    // A view on the same bytes (Buffer.from(Uint8Array) would copy the file once more).
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    documents.push({ nombre: file.name, contenido: view.toString('base64') });
  }
  return { documents, errors };
}

/** Every file error shows beside the file input: `documentos.2` → `documentos`. */
const toFormField = (apiField: string) => apiField.split('.')[0] ?? apiField;

function failed(errors: FieldError[], values: ClaimFormValues, status = 400) {
  const seen = new Set<string>();
  const byField = errors
    .map((error) => ({ ...error, field: toFormField(error.field) }))
    .filter((error) => {
      const key = `${error.field}:${error.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const known = new Set<string>([...textFields, 'documentos']);
  const failure: FormFailure = {
    errors: byField.filter((e) => known.has(e.field)),
    formErrors: byField.filter((e) => !known.has(e.field)).map((e) => e.message),
  };
  if (failure.errors.length > 0 && failure.formErrors.length === 0) {
    failure.formErrors.push('Revisa los campos marcados.');
  }
  return formFailure({ ok: false as const, ...failure, values }, status);
}

/**
 * The claim form's action (a multipart post, with or without JavaScript): checks it with the domain's rules, turns
 * it into the JSON body of `POST /companies/{companyId}/refunds` (documents in base64) and answers the request
 * number the API gave (X-Refund-Number), or the field errors to show beside the fields.
 */
export async function submitClaim(context: LoadContext, request: Request) {
  const refused = refusedUploads(context);
  if (refused) {
    return data(
      { ok: false as const, errors: [], formErrors: [refused.message], values: {} as ClaimFormValues },
      { status: refused.status, headers: retryAfter(refused.retryAfterSeconds) },
    );
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return failed([], {}, 400);
  }
  const values: ClaimFormValues = {};
  for (const name of textFields) {
    const value = form.get(name);
    values[name] = typeof value === 'string' ? value : '';
  }
  const encoded = await documentsOf(context, form);
  const body = {
    ...values,
    tipoDocumento: values.tipoDocumento ? Number(values.tipoDocumento) : undefined,
    monto: parseAmount(values.monto ?? '', values.moneda ?? ''),
    documentos: encoded.documents,
  };
  const checked = refundRequestSchema.safeParse(body);
  const errors = [
    ...withoutListErrors(checked.success ? [] : fieldErrorsOf(checked.error.issues, body), encoded.errors),
    ...encoded.errors,
  ];
  if (errors.length > 0 || !checked.success) return failed(errors, values);

  const answer = await serverApi(context).POST('/companies/{companyId}/refunds', {
    params: { path: { companyId: configuredCompanyId() } },
    body: body as ClaimBody,
  });
  const outcome = formOutcome(answer);
  if (!outcome.ok) {
    return formFailure({ ok: false as const, ...failedSplit(outcome.failure), values }, outcome.status);
  }
  const number = answer.response.headers.get('x-refund-number');
  if (!number) return formFailure({ ok: false as const, errors: [], formErrors: [unavailableMessage], values }, 503);
  return { ok: true as const, number };
}

function failedSplit(failure: FormFailure): FormFailure {
  return { errors: failure.errors.map((e) => ({ ...e, field: toFormField(e.field) })), formErrors: failure.formErrors };
}

// ─── Tracking ──────────────────────────────────────────────────────────────────────────────────────────────────────

export type TrackingData =
  | { state: 'form'; numero: string }
  | { state: 'found'; numero: string; documento: string; tracking: ClaimTracking; uploaded?: number }
  | (FormFailure & { state: 'failed'; numero: string; documento: string; tracking?: ClaimTracking });

const notFoundMessage =
  'No encontramos una solicitud con ese número y documento. Revisa ambos datos (el documento es el del titular).';

/** The tracking page's loader: the form, with the number pre-filled from the e-mail's link (`?numero=`). */
export function loadTracking(request: Request): TrackingData {
  const numero = new URL(request.url).searchParams.get('numero') ?? '';
  return { state: 'form', numero: normaliseRequestNumber(numero) ?? '' };
}

/**
 * The tracking page's action, a post so the holder's document never goes in a URL: `intent=lookup` shows the status;
 * `intent=upload` adds the missing documents, then shows the status again.
 */
export async function trackingAction(context: LoadContext, request: Request) {
  const refused = refusedUploads(context);
  if (refused) {
    return data(
      {
        state: 'failed' as const,
        numero: '',
        documento: '',
        errors: [],
        formErrors: [refused.message],
      },
      { status: refused.status, headers: retryAfter(refused.retryAfterSeconds) },
    );
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return formFailure({ state: 'failed' as const, numero: '', documento: '', errors: [], formErrors: [] }, 400);
  }
  const numero = String(form.get('numero') ?? '').trim();
  const documento = String(form.get('documento') ?? '').trim();
  const fail = (failure: FormFailure, status: number, tracking?: ClaimTracking) =>
    formFailure({ state: 'failed' as const, numero, documento, ...failure, ...(tracking ? { tracking } : {}) }, status);
  const missing: FieldError[] = [];
  const normalised = normaliseRequestNumber(numero);
  if (!numero) missing.push({ field: 'numero', code: 'required', message: 'Campo Obligatorio' });
  else if (!normalised) {
    missing.push({
      field: 'numero',
      code: 'invalid_format',
      message: 'Ingresa el número de solicitud (por ejemplo R-7K3M9XQ2)',
    });
  }
  if (!documento) missing.push({ field: 'documento', code: 'required', message: 'Campo Obligatorio' });
  if (missing.length > 0 || !normalised) return fail({ errors: missing, formErrors: [] }, 400);

  const api = serverApi(context);
  const params = { path: { companyId: configuredCompanyId(), number: normalised }, query: { document: documento } };
  const lookup = async () => {
    const answer = await api.GET('/companies/{companyId}/refunds/{number}', { params });
    return formOutcome(answer, { notFoundMessage });
  };

  if (form.get('intent') === 'upload') {
    const encoded = await documentsOf(context, form);
    const checked = refundDocuments.safeParse(encoded.documents);
    const errors = [
      ...withoutListErrors(
        checked.success ? [] : fieldErrorsOf(checked.error.issues, encoded.documents, 'documentos'),
        encoded.errors,
      ),
      ...encoded.errors,
    ].map((e) => ({ ...e, field: 'documentos' }));
    if (errors.length > 0) {
      const current = await lookup();
      return fail({ errors, formErrors: [] }, 400, current.ok ? current.data : undefined);
    }
    const answer = await api.POST('/companies/{companyId}/refunds/{number}/documents', {
      params,
      body: { documentos: encoded.documents },
    });
    const outcome = formOutcome(answer, { notFoundMessage, toField: toFormField });
    if (!outcome.ok) {
      const current = await lookup();
      return fail(outcome.failure, outcome.status, current.ok ? current.data : undefined);
    }
    return {
      state: 'found' as const,
      numero: normalised,
      documento,
      tracking: outcome.data,
      uploaded: encoded.fileCount,
    };
  }

  const outcome = await lookup();
  if (!outcome.ok) return fail(outcome.failure, outcome.status);
  return { state: 'found' as const, numero: normalised, documento, tracking: outcome.data };
}

export const maxFiles = refundLimits.maxFiles;
export type { RefundCurrency };
