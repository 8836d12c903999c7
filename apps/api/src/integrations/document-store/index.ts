import type { DocumentStoreConfig } from '#app/config.ts';
import type { DocumentStore } from './document-store.ts';
import { localDocumentStore } from './local.ts';
import type { S3Settings } from './s3.ts';

export type { DocumentStore } from './document-store.ts';
export { DocumentNotFoundError } from './document-store.ts';

/** Where an S3 store keeps documents, in words for logs (no secret). */
export function s3Location(settings: S3Settings): string {
  const where = settings.endpoint
    ? `${settings.endpoint} bucket ${settings.bucket}`
    : `s3://${settings.bucket} (${settings.region})`;
  return `S3 ${where}${settings.keyPrefix ? ` under ${settings.keyPrefix}` : ''}`;
}

/**
 * The store DOCUMENT_STORE chooses: a local directory (the default) or an S3-compatible bucket. The AWS SDK is loaded
 * only by a store that uses S3, on its first call: the others never hold its ~25 MB.
 */
export function createDocumentStore(config: DocumentStoreConfig): DocumentStore {
  if (config.kind === 'local') return localDocumentStore(config.dir);
  let loaded: Promise<DocumentStore> | undefined;
  const store = () => {
    loaded ??= import('./s3.ts').then(({ s3DocumentStore }) => s3DocumentStore(config));
    return loaded;
  };
  return {
    location: s3Location(config),
    put: async (key, body, contentType) => (await store()).put(key, body, contentType),
    get: async (key) => (await store()).get(key),
    delete: async (key) => (await store()).delete(key),
    check: async () => (await store()).check(),
  };
}
