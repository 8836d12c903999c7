import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * The operators' cryptography: keys derived from OPERATOR_SECRETS_KEY (HKDF-SHA256, one key per use), random tokens
 * stored as their SHA-256, the TOTP secret encrypted with AES-256-GCM, CSRF tokens as an HMAC of the session token.
 */
export type OperatorKeys = { encryption: Buffer; csrf: Buffer };

export function operatorKeys(secretsKey: string): OperatorKeys {
  const derive = (info: string) =>
    Buffer.from(hkdfSync('sha256', Buffer.from(secretsKey, 'utf8'), 'travesia-operators', info, 32));
  return { encryption: derive('totp-secret-encryption'), csrf: derive('csrf-token') };
}

/** 32 random bytes (256 bits), base64url: session tokens, enrolment links, challenges. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** How a random token is kept at rest: its SHA-256 (a token has enough entropy that no salt or slow hash is needed). */
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');

/** AES-256-GCM: `iv.tag.ciphertext`, each base64url. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [iv, tag, ciphertext] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !ciphertext) throw new Error('Malformed encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

/** The CSRF token of a session: an HMAC of its token, so it needs no storage and dies with the session. */
export const csrfTokenOf = (keys: OperatorKeys, sessionToken: string) =>
  createHmac('sha256', keys.csrf).update(`csrf:${sessionToken}`).digest('base64url');

/** Constant-time equality of two strings. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RFC 6238 with the parameters every authenticator app knows: SHA-1, 6 digits, 30 s. */
export const totpPeriodSeconds = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpOf(base32Secret: string, email: string): TOTP {
  return new TOTP({
    issuer: 'Travesía',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: totpPeriodSeconds,
    secret: Secret.fromBase32(base32Secret),
  });
}

/**
 * The time step a 6-digit code matches at `now` (one step of drift either way), or null. The caller refuses a step
 * not after the last one accepted, so a code is never accepted twice.
 */
export function matchingTotpStep(base32Secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(base32Secret, 'x').validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / totpPeriodSeconds) + delta;
}

/** A recovery code: 10 characters of an alphabet without look-alikes (49 bits), shown as `xxxxx-xxxxx`. */
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** A recovery code as typed (any case, spaces, with or without the hyphen), in its stored form. */
export function normalisedRecoveryCode(typed: string): string | null {
  const compact = typed.toLowerCase().replace(/[\s-]/g, '');
  if (!/^[a-z0-9]{10}$/.test(compact)) return null;
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}
