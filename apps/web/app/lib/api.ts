import createClient from 'openapi-fetch';
import type { paths } from './api-schema.d.ts';

declare module 'react-router' {
  interface AppLoadContext {
    /** Given by the API process that serves the storefront: reaches the API in-process. */
    apiFetch?: typeof fetch;
  }
}

export type ApiClient = ReturnType<typeof createClient<paths>>;

/**
 * The one way the storefront talks to the API: a client typed from the API's OpenAPI document.
 * On the server it uses the in-process fetch when the API serves us, else API_BASE_URL.
 */
export function serverApi(context: { apiFetch?: typeof fetch } | undefined): ApiClient {
  if (context?.apiFetch) return createClient<paths>({ baseUrl: 'http://in-process/api', fetch: context.apiFetch });
  return createClient<paths>({ baseUrl: process.env.API_BASE_URL ?? 'http://localhost:3000/api' });
}

/** In the browser the API is on the same origin. */
export const browserApi: ApiClient = createClient<paths>({ baseUrl: '/api' });

/** The company this storefront sells for (spec §1: fixed by environment configuration). */
export function configuredCompanyId(): number {
  const value = Number(process.env.COMPANY_ID ?? '1');
  return Number.isInteger(value) && value > 0 ? value : 1;
}
