import zlib, { type BrotliOptions, constants, type ZlibOptions } from 'node:zlib';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Compression of the answers made per request (API JSON, the OpenAPI viewer, server-rendered pages), Brotli or
 * gzip as the client's Accept-Encoding prefers, with `Vary: accept-encoding`. Built storefront assets are not
 * compressed here: the build writes their .br/.gz beside them once (apps/web/scripts/precompress.mjs) and
 * @fastify/static serves those (web.ts).
 *
 * @fastify/compress skips what is not text (images, PDFs: its compressible-types check), what is already encoded
 * (a Content-Encoding set), partial content, and buffered bodies under `compressionThresholdBytes`, where the headers
 * would outweigh the saving.
 */
export const compressionEncodings = ['br', 'gzip'] as const;

/** Bodies smaller than this leave uncompressed. */
export const compressionThresholdBytes = 1024;

/** Brotli per request: quality 5 made the home page 6 % smaller than 4 for 0.2 ms more (11 is for build time). */
const brotliQuality = 5;

/**
 * Bodies a cache keeps whole and sends again and again (a plan search answer, lib/cache/read-cache.ts `answer`): each is
 * compressed once per encoding, on the first request that asks for it, and that copy is sent to every later one.
 * Known by identity: only a Buffer handed to {@link keptBody} (which its owner never changes) is remembered, and
 * its copies go with it when the cache drops it.
 */
const keptBodies = new WeakMap<Buffer, { br?: Buffer; gzip?: Buffer }>();

/** Marks `body` as kept whole and never changed (see above); returns it. */
export function keptBody(body: Buffer): Buffer {
  if (!keptBodies.has(body)) keptBodies.set(body, {});
  return body;
}

function onceFor(encoding: 'br' | 'gzip', input: Buffer, compress: () => Buffer): Buffer {
  const copies = keptBodies.get(input);
  if (!copies) return compress();
  copies[encoding] ??= compress();
  return copies[encoding];
}

/**
 * What @fastify/compress calls to compress a buffered body in one go (its `zlib` option; streams still come from
 * node:zlib): node:zlib's own functions, reusing the compressed copy of a kept body.
 */
const zlibReusingKeptBodies = {
  brotliCompressSync: (input: Buffer, options?: BrotliOptions) =>
    onceFor('br', input, () => zlib.brotliCompressSync(input, options)),
  gzipSync: (input: Buffer, options?: ZlibOptions) => onceFor('gzip', input, () => zlib.gzipSync(input, options)),
};

/**
 * Buffered answers up to this size are compressed in one synchronous call (the path that reuses a kept body's
 * copy), larger ones through a stream. @fastify/compress's own default depends on the cores (8 KB on two, 64 KB on
 * one); API answers (a plan search is 5–20 KB) use the one-core figure, so that a kept one is always reused.
 */
export const apiSyncCompressionBytes = 65_536;

export type CompressionOptions = {
  /**
   * Flush the compressor after every chunk the handler writes, so a streamed answer (a server-rendered page whose
   * shell leaves before its deferred data) reaches the browser as it is produced instead of when a compressor
   * buffer fills. Costs a few bytes a chunk.
   */
  flushEachChunk?: boolean;
  /** Compress buffered bodies up to this size synchronously (default: @fastify/compress's, by the cores). */
  syncThresholdBytes?: number;
};

export function compressionSettings({
  flushEachChunk = false,
  syncThresholdBytes,
}: CompressionOptions = {}): FastifyCompressOptions {
  return {
    zlib: zlibReusingKeptBodies,
    ...(syncThresholdBytes === undefined ? {} : { syncThreshold: syncThresholdBytes }),
    encodings: [...compressionEncodings],
    threshold: compressionThresholdBytes,
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
      ...(flushEachChunk ? { flush: constants.BROTLI_OPERATION_FLUSH } : {}),
    },
    zlibOptions: flushEachChunk ? { flush: constants.Z_SYNC_FLUSH } : {},
    // Request bodies are read as sent: nothing here inflates a compressed upload.
    globalDecompression: false,
  };
}

/**
 * Compresses the answers of the routes `scope` (and its children) registers after this call. Each scope that wants
 * compression registers it: the static assets' scope does not, its files are compressed at build time.
 */
export async function registerCompression(scope: FastifyInstance, options: CompressionOptions = {}): Promise<void> {
  await scope.register(fastifyCompress, compressionSettings(options));
}
