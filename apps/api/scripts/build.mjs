// Bundles the API into dist/server.js (the web process), dist/start.js (`npm start`: the web process in React's
// production mode, src/start.ts) and dist/worker.js (the worker alone). Our own workspace code (@travesia/domain, TypeScript) is bundled in;
// published packages stay external and load from node_modules.
import { cp, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
// The packages our bundled workspace code imports are external too: @travesia/domain's own dependencies (sanitize-html
// is CommonJS and requires Node's built-ins, which an ES module bundle cannot do) load from node_modules like the
// API's. A dependency missing here breaks `npm start` at its first line, so the start-mode test runs the bundle.
const manifests = ['package.json', '../../packages/domain/package.json'];
const dependencies = await Promise.all(
  manifests.map(async (path) =>
    Object.keys(JSON.parse(await readFile(new URL(path, root), 'utf8')).dependencies ?? {}),
  ),
);
const external = [...new Set(dependencies.flat())].filter((name) => !name.startsWith('@travesia/'));

await rm(new URL('dist', root), { recursive: true, force: true });
await build({
  entryPoints: {
    server: new URL('src/server.ts', root).pathname,
    start: new URL('src/start.ts', root).pathname,
    worker: new URL('src/worker-main.ts', root).pathname,
  },
  outdir: new URL('dist', root).pathname,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  // Shared code goes to chunks beside the entries (dist/, so paths from import.meta.url hold), and start.js's
  // import of the server stays a real, later import: it sets NODE_ENV before React is first loaded.
  splitting: true,
  sourcemap: true,
  external,
  logLevel: 'warning',
});
await cp(new URL('src/db/migrations', root), new URL('dist/migrations', root), { recursive: true });
console.log('API built into apps/api/dist');
