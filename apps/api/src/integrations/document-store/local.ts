import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkedKey, DocumentNotFoundError, type DocumentStore } from './document-store.ts';

/**
 * Documents as files under `root` (DATA_DIR/documents by default): fine for one instance, or several sharing a
 * network disk. A document is written to a temporary name and renamed when complete, so a reader never sees half of
 * one and a failed write leaves nothing under its key.
 */
export function localDocumentStore(root: string): DocumentStore {
  const base = resolve(root);
  const pathOf = (key: string) => join(base, checkedKey(key));
  return {
    location: `local directory ${base}`,
    async put(key, body: Readable) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
      const file = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(body, file);
        await rename(partial, path);
        return { size: file.bytesWritten };
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key) {
      const path = pathOf(key);
      try {
        await access(path, constants.R_OK);
      } catch {
        throw new DocumentNotFoundError(key);
      }
      return createReadStream(path);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async check() {
      await mkdir(base, { recursive: true });
      const probe = join(base, `.write-check-${randomBytes(4).toString('hex')}`);
      await writeFile(probe, '');
      await rm(probe, { force: true });
    },
  };
}
