import type { DocumentStoreConfig } from '#app/config.ts';
import type { DocumentStore } from './document-store.ts';
import { localDocumentStore } from './local.ts';
import { s3DocumentStore } from './s3.ts';

export type { DocumentStore } from './document-store.ts';
export { DocumentNotFoundError } from './document-store.ts';

/** The store DOCUMENT_STORE chooses: a local directory (the default) or an S3-compatible bucket. */
export function createDocumentStore(config: DocumentStoreConfig): DocumentStore {
  return config.kind === 's3' ? s3DocumentStore(config) : localDocumentStore(config.dir);
}
