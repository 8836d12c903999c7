import { constants } from 'node:zlib';
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

export type CompressionOptions = {
  /**
   * Flush the compressor after every chunk the handler writes, so a streamed answer (a server-rendered page whose
   * shell leaves before its deferred data) reaches the browser as it is produced instead of when a compressor
   * buffer fills. Costs a few bytes a chunk.
   */
  flushEachChunk?: boolean;
};

export function compressionSettings({ flushEachChunk = false }: CompressionOptions = {}): FastifyCompressOptions {
  return {
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
