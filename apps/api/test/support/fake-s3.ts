import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server on loopback, path-style (`/{bucket}/{key}`), for the S3 document store's tests: the
 * real adapter (AWS SDK v3, lib-storage) talks to it over HTTP. It answers HeadBucket, PutObject, GetObject,
 * DeleteObject and the multipart upload calls, keeps objects in memory, and records every request (method, path,
 * the access key id of its signature) so a test sees what the adapter sent.
 */
export type FakeS3 = {
  endpoint: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType: string | undefined }>;
  /** Multipart uploads begun and neither completed nor aborted. */
  openMultipartUploads: () => number;
  requests: { method: string; path: string; accessKeyId: string | undefined }[];
  close: () => Promise<void>;
};

const xml = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
};

const s3Error = (res: ServerResponse, status: number, code: string) =>
  xml(res, status, `<Error><Code>${code}</Code><Message>${code}</Message></Error>`);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(bucket = 'travesia-docs'): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; contentType: string | undefined }>();
  const multipart = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const requests: FakeS3['requests'] = [];
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://fake-s3');
      const [, bucketName, ...keyParts] = url.pathname.split('/');
      const key = decodeURIComponent(keyParts.join('/'));
      const accessKeyId = /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1];
      requests.push({ method: req.method ?? '', path: url.pathname + url.search, accessKeyId });
      if (bucketName !== bucket) return s3Error(res, 404, 'NoSuchBucket');
      const uploadId = url.searchParams.get('uploadId');
      if (req.method === 'HEAD' && key === '') {
        res.writeHead(200).end();
        return;
      }
      if (req.method === 'POST' && url.searchParams.has('uploads')) {
        const id = randomUUID();
        multipart.set(id, { key, parts: new Map() });
        return xml(
          res,
          200,
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
        );
      }
      if (req.method === 'PUT' && uploadId) {
        const upload = multipart.get(uploadId);
        if (!upload) return s3Error(res, 404, 'NoSuchUpload');
        upload.parts.set(Number(url.searchParams.get('partNumber')), await bodyOf(req));
        res.writeHead(200, { etag: `"${uploadId}-${url.searchParams.get('partNumber')}"` }).end();
        return;
      }
      if (req.method === 'POST' && uploadId) {
        const upload = multipart.get(uploadId);
        if (!upload) return s3Error(res, 404, 'NoSuchUpload');
        await bodyOf(req);
        const ordered = [...upload.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
        objects.set(key, { body: Buffer.concat(ordered), contentType: undefined });
        multipart.delete(uploadId);
        return xml(
          res,
          200,
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>"x"</ETag></CompleteMultipartUploadResult>`,
        );
      }
      if (req.method === 'DELETE' && uploadId) {
        multipart.delete(uploadId);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'PUT') {
        const body = await bodyOf(req);
        objects.set(key, { body, contentType: req.headers['content-type'] });
        res.writeHead(200, { etag: '"x"' }).end();
        return;
      }
      if (req.method === 'GET') {
        const object = objects.get(key);
        if (!object) return s3Error(res, 404, 'NoSuchKey');
        res.writeHead(200, {
          'content-type': object.contentType ?? 'application/octet-stream',
          'content-length': String(object.body.length),
        });
        res.end(object.body);
        return;
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204).end();
        return;
      }
      s3Error(res, 405, 'MethodNotAllowed');
    } catch {
      if (!res.headersSent) s3Error(res, 500, 'InternalError');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    openMultipartUploads: () => multipart.size,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
