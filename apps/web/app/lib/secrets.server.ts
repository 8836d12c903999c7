/**
 * The secret that signs the storefront's cookies: COOKIE_SECRET (at least 32 characters). The API's configuration
 * refuses to start in production without it; in development a fixed, public value keeps cookies working across
 * restarts (anyone can forge those, which is fine on a developer's machine and nowhere else).
 */
const developmentSecret = 'travesia-development-cookie-secret-not-for-production';

export function cookieSecrets(): string[] {
  const configured = process.env.COOKIE_SECRET;
  if (configured && configured.length >= 32) return [configured];
  if (process.env.NODE_ENV === 'production') {
    throw new Error('COOKIE_SECRET must be set (32 characters or more) in production');
  }
  return [developmentSecret];
}
