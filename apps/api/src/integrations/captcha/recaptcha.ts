import type { RecaptchaConfig } from '#app/config.ts';

/** What Google said about a token: accepted, or refused for the visitor's reasons (expired, used, never solved). */
export type CaptchaVerdict = { ok: true } | { ok: false; errorCodes: string[] };

export interface CaptchaVerifier {
  /** The public site key the browser renders the widget with. */
  readonly siteKey: string;
  /** Asks siteverify about a token; throws {@link CaptchaUnavailableError} when no verdict could be had. */
  verify(token: string, remoteIp?: string): Promise<CaptchaVerdict>;
}

/** siteverify could not be reached, answered an error, or refused our own secret: nobody can tell about the token. */
export class CaptchaUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`reCAPTCHA verification unavailable: ${reason}`);
    this.name = 'CaptchaUnavailableError';
  }
}

/** The longest wait for siteverify; a visitor's request must not hang on Google. */
export const verifyTimeoutMs = 5_000;

/** Error codes that are our fault (the secret, the request), not the visitor's token. */
const ourFault = new Set(['missing-input-secret', 'invalid-input-secret', 'bad-request']);

/**
 * reCAPTCHA v2 through Google's siteverify (`POST` form-encoded `secret`, `response`, `remoteip` →
 * `{ success, 'error-codes' }`), at the configured URL: Google's, or a fake on loopback in tests.
 */
export function recaptchaVerifier(config: RecaptchaConfig): CaptchaVerifier {
  return {
    siteKey: config.siteKey,
    async verify(token, remoteIp) {
      const form = new URLSearchParams({ secret: config.secretKey, response: token });
      if (remoteIp) form.set('remoteip', remoteIp);
      let response: Response;
      try {
        response = await fetch(config.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(verifyTimeoutMs),
        });
      } catch (error) {
        const name = (error as { name?: string } | null)?.name;
        throw new CaptchaUnavailableError(name === 'TimeoutError' ? 'timeout' : 'unreachable');
      }
      if (!response.ok) throw new CaptchaUnavailableError(`status ${response.status}`);
      let answer: { success?: unknown; 'error-codes'?: unknown };
      try {
        answer = (await response.json()) as typeof answer;
      } catch {
        throw new CaptchaUnavailableError('unreadable answer');
      }
      if (answer.success === true) return { ok: true };
      const errorCodes = Array.isArray(answer['error-codes']) ? answer['error-codes'].map(String) : [];
      if (errorCodes.some((code) => ourFault.has(code))) {
        throw new CaptchaUnavailableError(`refused our request: ${errorCodes.join(',')}`);
      }
      return { ok: false, errorCodes };
    },
  };
}
