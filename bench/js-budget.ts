// Home's first-load JavaScript against its budget (issue #10, docs/performance.md «Client JavaScript»): the scripts
// the server-rendered page names (the entry and its imports, then every matched route module and its imports —
// exactly React Router's <link rel="modulepreload"> list), each gzipped at level 6 as `gzip -c` does (less its
// file-name header), summed.
// It is a size check, not a timed test: same build, same answer. Fails (exit 1) past the budget.
// Usage: npm run build && npm run check:js-budget
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The most gzip bytes of JavaScript home may load before the visitor does anything. The figure measured after
 * the split (docs/performance.md) plus a little room, raised by 2 kB for what issue #13 added to every page (the
 * no-JavaScript menus and covid table, forms that post without scripts), lowered to 130 kB once React, React DOM
 * and React Router shared one chunk (128.6 kB, docs/performance.md «Lighthouse»); those three alone weigh ~108 kB.
 * It may not grow (issue #23, which withdrew issue #10's 90 kB target: React and React Router are the stack).
 */
export const homeFirstLoadBudget = 130_000;

type ManifestRoute = { id: string; parentId?: string; module: string; imports?: string[] };
type Manifest = { entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute> };

export const clientBuildDir = fileURLToPath(new URL('../apps/web/build/client', import.meta.url));

/** React Router's client manifest (build/client/assets/manifest-*.js: `window.__reactRouterManifest={…};`). */
export function readManifest(clientDir = clientBuildDir): Manifest {
  const assets = join(clientDir, 'assets');
  if (!existsSync(assets)) throw new Error(`No storefront build in ${clientDir}: run \`npm run build\` first`);
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`No React Router manifest in ${assets}`);
  const text = readFileSync(join(assets, file), 'utf8');
  const json = text.slice(text.indexOf('=') + 1).replace(/;\s*$/, '');
  return JSON.parse(json) as Manifest;
}

/** The script URLs a first load of the route preloads, in React Router's order, without repeats. */
export function firstLoadScripts(manifest: Manifest, routeId: string): string[] {
  const chain: ManifestRoute[] = [];
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`Route «${id}» is not in the manifest`);
    chain.unshift(route);
  }
  const urls = [manifest.entry.module, ...manifest.entry.imports];
  for (const route of chain) urls.push(route.module, ...(route.imports ?? []));
  return [...new Set(urls)];
}

export type ScriptSize = { url: string; bytes: number; gzipBytes: number };

export function scriptSizes(urls: string[], clientDir = clientBuildDir): ScriptSize[] {
  return urls.map((url) => {
    const content = readFileSync(join(clientDir, url));
    return { url, bytes: content.length, gzipBytes: gzipSync(content, { level: 6 }).length };
  });
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function main() {
  const sizes = scriptSizes(firstLoadScripts(readManifest(), 'index'));
  const total = sizes.reduce((sum, size) => sum + size.gzipBytes, 0);
  const raw = sizes.reduce((sum, size) => sum + size.bytes, 0);
  console.log("Home's first-load JavaScript (route «index»), gzip level 6:");
  for (const size of [...sizes].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    console.log(`  ${size.url.padEnd(48)} ${kB(size.bytes).padStart(9)} ${kB(size.gzipBytes).padStart(9)}`);
  }
  console.log(`  ${'total'.padEnd(48)} ${kB(raw).padStart(9)} ${kB(total).padStart(9)}  (${sizes.length} files)`);
  console.log(`  budget ${kB(homeFirstLoadBudget)}: ${total <= homeFirstLoadBudget ? 'met' : 'EXCEEDED'}`);
  if (total > homeFirstLoadBudget) {
    console.error(
      `Home loads ${kB(total)} of JavaScript (gzip) on first load, over its ${kB(homeFirstLoadBudget)} budget: ` +
        'load what the page does not need at once with import() (see docs/performance.md, «Client JavaScript»).',
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
