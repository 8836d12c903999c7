import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkedKey, DocumentNotFoundError, type DocumentStore } from './document-store.ts';

export type S3Settings = {
  bucket: string;
  region: string;
  /** Another S3 API than AWS's (MinIO, Ceph, R2…): its base URL. */
  endpoint: string | undefined;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (AWS_* variables, the instance's or the task's role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Prepended to every key (`travesia/`), so one bucket may serve several stores. */
  keyPrefix: string;
};

/** How long a request to the store may take before it is given up (a store that stopped answering). */
const requestTimeoutMs = 30_000;

/**
 * Documents as objects of an S3-compatible bucket. An upload of unknown length goes through lib-storage's Upload,
 * which sends one PutObject when the body fits one part (every refund document: at most 5 MB) and a multipart upload
 * otherwise, holding at most one part in memory; a body that fails aborts it, and nothing is left under the key.
 */
export function s3DocumentStore(settings: S3Settings): DocumentStore {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where S3 requires them: S3-compatible stores do not all take the SDK's newer trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { requestTimeout: requestTimeoutMs, connectionTimeout: 5_000 },
    maxAttempts: 3,
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => `${settings.keyPrefix}${checkedKey(key)}`;
  const where = settings.endpoint ? `${settings.endpoint} bucket ${Bucket}` : `s3://${Bucket} (${settings.region})`;
  return {
    location: `S3 ${where}${settings.keyPrefix ? ` under ${settings.keyPrefix}` : ''}`,
    async put(key, body, contentType) {
      const Key = objectKey(key);
      let size = 0;
      // Counted as the bytes pass; the source's failure reaches the Upload through the pass-through.
      const counted = new PassThrough();
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      body.once('error', (error) => counted.destroy(error));
      body.pipe(counted);
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: counted, ContentType: contentType },
        queueSize: 1,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
        return { size };
      } catch (error) {
        // A single PutObject never sent leaves nothing; a multipart one was aborted by Upload. Deleting is idempotent.
        await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!(answer.Body instanceof Readable)) throw new Error('The S3 answer has no body');
        return answer.Body;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (error instanceof NoSuchKey || status === 404) throw new DocumentNotFoundError(key);
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async check() {
      // A write and a delete of a probe object: the very rights the store needs (HeadBucket would need ListBucket,
      // which a least-privilege policy on the bucket's objects does not grant).
      const Key = objectKey(`.document-store-check/${randomUUID()}`);
      try {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: '' }));
        await client.send(new DeleteObjectCommand({ Bucket, Key }));
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        throw new Error(status ? `HTTP ${status}` : error instanceof Error ? error.message : String(error));
      }
    },
  };
}
