import { channel } from 'node:diagnostics_channel';

/**
 * What the store's parts tell the metrics (metrics.ts) without importing them: Node's diagnostics channels, so the
 * mailer and the caches stay unaware of Prometheus, and a message costs nothing while nobody listens.
 */
export type MailSignal = { ok: boolean };
export type CacheSignal = { cache: 'catalogue' | 'answer' | 'page'; hit: boolean };

export const mailChannel = channel('travesia.mail');
export const cacheChannel = channel('travesia.cache');

export function signalMail(message: MailSignal): void {
  if (mailChannel.hasSubscribers) mailChannel.publish(message);
}

export function signalCache(cache: CacheSignal['cache'], hit: boolean): void {
  if (cacheChannel.hasSubscribers) cacheChannel.publish({ cache, hit } satisfies CacheSignal);
}
