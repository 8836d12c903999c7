import createClient from 'openapi-fetch';
import type { ApiClient } from './api.ts';
import { type LoadContext, unreachableAsUnavailable } from './api-answer.server.ts';
import type { paths } from './api-schema.d.ts';
import { webConfig } from './config.server.ts';

/**
 * The one way the storefront's loaders and actions talk to the API: a client typed from the API's OpenAPI document,
 * through the in-process fetch when the API serves us, else API_BASE_URL. An API it cannot reach answers 503
 * (see `unreachableAsUnavailable`), so callers handle one kind of failure: an answer.
 */
export function serverApi(context: LoadContext): ApiClient {
  const client = context?.apiFetch
    ? createClient<paths>({ baseUrl: 'http://in-process/api', fetch: context.apiFetch })
    : createClient<paths>({ baseUrl: webConfig.apiBaseUrl });
  client.use(unreachableAsUnavailable);
  return client;
}

/** The company this storefront sells for (spec §1: fixed by environment configuration, COMPANY_ID). */
export function configuredCompanyId(): number {
  return webConfig.companyId;
}

/**
 * The Host this page was asked at, as the page received it, for an API call that builds a gateway's return address
 * (PUBLIC_URL first; this Host only when ALLOWED_HOSTS lists it). The forwarded headers are believed by the API only
 * from a TRUST_PROXY peer (in process: this page's own peer).
 */
export function pageHostHeaders(request: Request) {
  const url = new URL(request.url);
  return {
    host: url.host,
    'x-forwarded-host': request.headers.get('x-forwarded-host') ?? url.host,
    'x-forwarded-proto': request.headers.get('x-forwarded-proto') ?? url.protocol.replace(':', ''),
  };
}
