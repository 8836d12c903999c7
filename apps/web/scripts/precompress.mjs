// Writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text file of the built client
// (build/client: the hashed JS and CSS under assets/, SVGs…), once, at build time, at the highest settings, which
// would be too slow per request. The server sends the copy the browser accepts (@fastify/static's preCompressed,
// apps/api/src/web.ts). Files under 1 KB, images and other binary files are left alone, and a copy that does not
// come out smaller is not written. Another app's client directory may be given as the argument (the operator
// console's build: apps/backoffice, served by apps/api/src/backoffice-web.ts).
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const clientDir = new URL('../build/client/', import.meta.url);
const textExtensions = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.xml',
  '.webmanifest',
  '.map',
]);
/** Same floor as the per-request compression (apps/api/src/lib/http/compression.ts). */
const minimumBytes = 1024;

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

const root = process.argv[2] ? resolve(process.argv[2]) : clientDir.pathname;
let files = 0;
let plainBytes = 0;
let brotliBytes = 0;
let gzipBytes = 0;
const paths = [];
for await (const path of filesUnder(root)) {
  // Copies left by an earlier build go first: their file may be gone or changed.
  if (path.endsWith('.br') || path.endsWith('.gz')) await rm(path);
  else paths.push(path);
}
for (const path of paths) {
  if (!textExtensions.has(extname(path)) || (await stat(path)).size < minimumBytes) continue;
  const plain = await readFile(path);
  const brotli = brotliCompressSync(plain, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
    },
  });
  const gzip = gzipSync(plain, { level: constants.Z_BEST_COMPRESSION });
  if (brotli.length < plain.length) await writeFile(`${path}.br`, brotli);
  if (gzip.length < plain.length) await writeFile(`${path}.gz`, gzip);
  files += 1;
  plainBytes += plain.length;
  brotliBytes += Math.min(brotli.length, plain.length);
  gzipBytes += Math.min(gzip.length, plain.length);
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `Precompressed ${files} files of build/client: ${kb(plainBytes)} → ${kb(brotliBytes)} brotli, ${kb(gzipBytes)} gzip`,
);
