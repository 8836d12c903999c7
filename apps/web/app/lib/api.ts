import createClient from 'openapi-fetch';
import type { paths } from './api-schema.d.ts';

declare module 'react-router' {
  interface AppLoadContext {
    /** Given by the API process that serves the storefront: reaches the API in-process. */
    apiFetch?: typeof fetch;
    /** This page's Content-Security-Policy nonce (apps/api/src/lib/http/security-headers.ts), for entry.server.tsx. */
    cspNonce?: string;
  }
}

export type ApiClient = ReturnType<typeof createClient<paths>>;

/** In the browser the API is on the same origin. */
export const browserApi: ApiClient = createClient<paths>({ baseUrl: '/api' });
