import { printable } from './lib/security/terminal-text.ts';

/**
 * What the operator's CLIs (`npm run refunds`, `npm run operators`) share since issue 24: they are thin clients of the
 * console API (/api/backoffice), authenticated with an operator API key (`tvk_…`, made in the console's «Claves
 * API»), so every action is checked by role and audited under the key, as the console's own are.
 */

export const defaultApiUrl = 'http://localhost:3000';

/** How to get a key, said whenever one is missing or refused. */
export const howToMakeAKey =
  'Create an API key in the operator console («Claves API», an administrator does it) with the role the command ' +
  'needs (admin, or finance for sale refunds, support for claims), then run with TRAVESIA_API_KEY=tvk_… ' +
  `(and TRAVESIA_API_URL, default ${defaultApiUrl}).`;

/** A refusal of the API (its §8 body's message and field messages), or a failure to reach it, in words. */
export class CliApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type ConsoleApi = {
  /** `GET`/`POST` a console route (the path after /api/backoffice), answering its JSON; refusals throw CliApiError. */
  json: <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;
  /** A GET answering the raw response (a document's bytes); refusals throw CliApiError. */
  raw: (path: string) => Promise<Response>;
};

/**
 * The console API client of `env` (TRAVESIA_API_URL, TRAVESIA_API_KEY), or a CliApiError saying how to make a key when
 * none is set.
 */
export function consoleApi(env: NodeJS.ProcessEnv): ConsoleApi {
  const key = env.TRAVESIA_API_KEY?.trim();
  if (!key) throw new CliApiError(0, `TRAVESIA_API_KEY is not set. ${howToMakeAKey}`);
  const base = (env.TRAVESIA_API_URL?.trim() || defaultApiUrl).replace(/\/+$/, '');
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const url = path.startsWith('/api/') ? `${base}${path}` : `${base}/api/backoffice${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new CliApiError(0, `Could not reach the API at ${base}${cause}. Is the server running (TRAVESIA_API_URL)?`);
    }
    if (!response.ok) throw await refusal(response);
    return response;
  };
  return {
    json: async <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
      (await (await send(method, path, body)).json()) as T,
    raw: (path) => send('GET', path),
  };
}

/** The §8 body of a refused request in words: its field messages, else its detail; a bad key says how to make one. */
async function refusal(response: Response): Promise<CliApiError> {
  const text = await response.text();
  let words = '';
  try {
    const body = JSON.parse(text) as { detail?: unknown; errors?: { message?: unknown }[] };
    const fields = (body.errors ?? []).map((e) => e.message).filter((m): m is string => typeof m === 'string');
    words = fields.join('; ') || (typeof body.detail === 'string' ? body.detail : '');
  } catch {
    // Not JSON (a proxy's page): its status says enough.
  }
  words ||= `HTTP ${response.status}`;
  if (response.status === 401)
    words = `${words} (TRAVESIA_API_KEY was refused: revoked, expired or mistyped). ${howToMakeAKey}`;
  if (response.status === 403) words = `${words} (the API key lacks the role this command needs)`;
  return new CliApiError(response.status, words);
}

/** Runs a CLI's body, printing a CliApiError in words (exit 1). */
export async function reportingRefusals(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CliApiError) {
      console.error(printable(`Error: ${error.message}`));
      return 1;
    }
    throw error;
  }
}
