// Bundles the API into dist/server.js (the web process) and dist/worker.js (the worker alone). Our own workspace code (@travesia/domain, TypeScript) is bundled in;
// published packages stay external and load from node_modules.
import { cp, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@travesia/'));

await rm(new URL('dist', root), { recursive: true, force: true });
await build({
  entryPoints: {
    server: new URL('src/server.ts', root).pathname,
    worker: new URL('src/worker-main.ts', root).pathname,
  },
  outdir: new URL('dist', root).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
await cp(new URL('src/db/migrations', root), new URL('dist/migrations', root), { recursive: true });
console.log('API built into apps/api/dist');
