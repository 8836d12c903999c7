import type { Readable } from 'node:stream';

/**
 * Where the visitors' documents (refund claims' receipts, reports…) are kept: never in the database and never whole in
 * memory. A local directory by default, or any S3-compatible object store (AWS S3, MinIO…): docs/document-store.md.
 */
export interface DocumentStore {
  /** Where the documents are (for logs and the operator), without any secret. */
  readonly location: string;
  /**
   * Writes `body` under `key` as its bytes arrive and resolves with how many were stored. When `body` fails (too
   * large, not a document, the visitor gone) the promise rejects with that error and nothing is left under `key`.
   */
  put(key: string, body: Readable, contentType: string): Promise<{ size: number }>;
  /** The bytes stored under `key`, as a stream; DocumentNotFoundError when there are none. */
  get(key: string): Promise<Readable>;
  /** Removes what is under `key`; nothing there is not an error. */
  delete(key: string): Promise<void>;
  /** Start-up check: the store answers and takes writes (a clear error now rather than at the first upload). */
  check(): Promise<void>;
}

export class DocumentNotFoundError extends Error {
  constructor(key: string) {
    super(`No document stored under ${key}`);
  }
}

/** Keys are made by the API (folders and random ids): letters, digits, `-`, `_`, `.` and `/`, never `..` or a leading `/`. */
const keyPattern = /^(?!\/)(?!.*\.\.)[A-Za-z0-9/_.-]{1,512}$/;

export function checkedKey(key: string): string {
  if (!keyPattern.test(key)) throw new Error(`Not a document key: ${JSON.stringify(key)}`);
  return key;
}
