import type { CertificateSearchType } from '@travesia/domain/rules';
import { data } from 'react-router';
import { serverApi } from '#app/lib/api.server.ts';
import { type LoadContext, pageError, rateLimitedMessage, unavailableMessage } from '#app/lib/api-answer.server.ts';
import type { components } from '#app/lib/api-schema.d.ts';
import { defaultSearchType, isSearchType, keywordError } from './search.ts';

export type FoundCertificate = components['schemas']['Certificate'];
export type CertificateVerification = components['schemas']['CertificateVerification'];

export type SearchState = {
  type: CertificateSearchType;
  keyword: string;
  /** The keyword's error (spec §5), when the search was refused before asking the API. */
  error: string | null;
  /** null: no search yet (or refused); otherwise what the API found (maybe nothing). */
  results: FoundCertificate[] | null;
  /** A message for the whole search (too many searches, the API unavailable). */
  failure: string | null;
};

/**
 * The search of /certificados, from the URL (`?tipo=email&valor=…`): a plain GET form carries it without
 * JavaScript. The keyword is checked with the domain's rule for its type before the API is asked.
 */
export async function searchFromUrl(context: LoadContext, request: Request): Promise<SearchState> {
  const params = new URL(request.url).searchParams;
  const requested = params.get('tipo');
  const type = isSearchType(requested) ? requested : defaultSearchType;
  const keyword = params.get('valor') ?? '';
  if (!params.has('valor')) return { type, keyword, error: null, results: null, failure: null };
  const error = keywordError(type, keyword);
  if (error) return { type, keyword, error, results: null, failure: null };
  const answer = await serverApi(context).GET('/certificates', { params: { query: { word: keyword.trim() } } });
  if (answer.data && answer.response.ok) return { type, keyword, error: null, results: answer.data, failure: null };
  const failure = answer.response.status === 429 ? rateLimitedMessage : unavailableMessage;
  return { type, keyword, error: null, results: null, failure };
}

export type SendOutcome = { certificate: string; sent: boolean; message: string };

/** «Enviar Certificado»: the certificate e-mailed again to the address on it (never one typed here). */
export async function sendCertificate(context: LoadContext, request: Request) {
  const form = await request.formData();
  const certificate = String(form.get('certificado') ?? '');
  if (!certificate)
    return data<SendOutcome>({ certificate, sent: false, message: unavailableMessage }, { status: 400 });
  const { response } = await serverApi(context).POST('/certificates/{certificate}/auto-envio', {
    params: { path: { certificate } },
    body: { type: 0, canal: 'WEB' },
  });
  if (response.ok) {
    return data<SendOutcome>({
      certificate,
      sent: true,
      message: 'Enviamos el certificado al correo del titular.',
    });
  }
  const message =
    response.status === 429
      ? rateLimitedMessage
      : 'No pudimos enviar el certificado. Intenta nuevamente en unos minutos.';
  return data<SendOutcome>({ certificate, sent: false, message }, { status: response.status === 429 ? 429 : 503 });
}

export type VerificationState = { found: true; verification: CertificateVerification } | { found: false; code: string };

/** /verificar/{code}: the public check of a certificate; an unknown code is a 404 page that says so. */
export async function loadVerification(context: LoadContext, code: string) {
  const answer = await serverApi(context).GET('/certificates/verification/{code}', { params: { path: { code } } });
  if (answer.data && answer.response.ok) return { found: true, verification: answer.data } as VerificationState;
  const { status } = answer.response;
  if (status === 404 || status === 400) {
    return data<VerificationState>({ found: false, code: code.slice(0, 40) }, { status: 404 });
  }
  if (status === 429) throw pageError(503, rateLimitedMessage);
  throw pageError(503, 'No pudimos verificar el certificado.');
}
