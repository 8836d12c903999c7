import { type WebConfig, webConfig } from './config.server.ts';

/**
 * The secret that signs the storefront's cookies: COOKIE_SECRET (at least 32 characters). The API's configuration
 * refuses to start in production without it; in development a fixed, public value keeps cookies working across
 * restarts (anyone can forge those, which is fine on a developer's machine and nowhere else).
 */
const developmentSecret = 'travesia-development-cookie-secret-not-for-production';

export function cookieSecrets(config: Pick<WebConfig, 'cookieSecret'> = webConfig): string[] {
  // config.server.ts refuses a short secret, and a missing one in production.
  return [config.cookieSecret ?? developmentSecret];
}
