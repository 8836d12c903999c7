import { Transform } from 'node:stream';

/**
 * Paint first, then hydrate. The first paint of a server-rendered page needs its HTML and the site's stylesheet,
 * nothing else: the page is whole and its forms work before any script runs (README «The shell»). React Router
 * writes one `<link rel="modulepreload">` per script of the page (about 20, 110 kB compressed on home) in the head,
 * ahead of the stylesheet, and starts the page's modules from an inline `<script type="module">` at the end of the
 * body; on a slow phone connection those downloads share the line with the stylesheet and hold back the first paint
 * (docs/performance.md, «Lighthouse»).
 *
 * `deferHydration` rewrites the document as it streams out:
 * - the head: its stylesheets move to the top (just after the `<meta>` charset and viewport, so they are the first
 *   requests); its module preloads leave it, and a small inline script takes their place;
 * - the body: React Router's module script gets an inert type (`text/x-hydrate`), so the browser neither fetches nor
 *   runs it while parsing.
 * Once the page has painted its first frame and is parsed, that small script adds the module preloads back (all at
 * once, fetched in parallel) and runs React Router's module script as written: the page hydrates as before, one
 * frame later (the module script runs from the head, where React leaves what it did not render alone). A hidden
 * tab (no frames) starts after at most a second. The rest of the body streams as before.
 */
export const inertModuleType = 'text/x-hydrate';

const moduleScriptAttribute = ' type="module"';
const preloadPattern = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
const stylesheetPattern = /<link\b[^>]*\brel="stylesheet"[^>]*\/?>/g;

/** What the head's inline script runs: waits for the first frame (or 1 s) and for the parsed document, then starts. */
function starter(hrefs: string[]): string {
  return `(function(){var hrefs=${JSON.stringify(hrefs).replace(/</g, '\\u003c')},painted=0,parsed=0,done=0;function start(){if(done||!painted||!parsed)return;done=1;hrefs.forEach(function(href){var link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.appendChild(link)});var inert=document.querySelector('script[type="${inertModuleType}"]');if(!inert)return;var script=document.createElement("script");script.type="module";script.nonce=inert.nonce;script.text=inert.text;document.head.appendChild(script)}function paint(){painted=1;start()}requestAnimationFrame(function(){setTimeout(paint,0)});setTimeout(paint,1000);function ready(){parsed=1;start()}if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",ready);else ready()})();`;
}

/** The head, stylesheets first and module preloads replaced by the starter script (carrying the page's nonce). */
export function prioritizeHead(head: string): string {
  const stylesheets: string[] = [];
  const hrefs: string[] = [];
  let nonce: string | undefined;
  let rest = head.replace(stylesheetPattern, (tag) => {
    stylesheets.push(tag);
    return '';
  });
  rest = rest.replace(preloadPattern, (tag) => {
    const href = /\bhref="([^"]*)"/.exec(tag)?.[1];
    if (href) hrefs.push(href);
    nonce ??= /\bnonce="([^"]*)"/.exec(tag)?.[1];
    return '';
  });
  const scripts = hrefs.length > 0 ? `<script${nonce ? ` nonce="${nonce}"` : ''}>${starter(hrefs)}</script>` : '';
  // After the leading <meta charset>/<meta name="viewport"> (they must stay first), else right after <head>.
  const anchor = /^[\s\S]*?<head\b[^>]*>(?:\s*<meta\b(?:[^>]*\bcharSet=|[^>]*\bname="viewport")[^>]*>)*/i.exec(rest);
  const at = anchor ? anchor[0].length : 0;
  return rest.slice(0, at) + stylesheets.join('') + rest.slice(at) + scripts;
}

const headEnd = Buffer.from('</head>');
const scriptOpen = Buffer.from('<script');
const moduleType = Buffer.from(moduleScriptAttribute);
const inertType = Buffer.from(` type="${inertModuleType}"`);

/** Where the first `<script …>` tag carrying ` type="module"` has that attribute, -1 when `bytes` holds none. */
function moduleAttributeAt(bytes: Buffer): number {
  for (let at = bytes.indexOf(moduleType); at !== -1; at = bytes.indexOf(moduleType, at + 1)) {
    const tag = bytes.lastIndexOf(scriptOpen, at);
    if (tag !== -1 && bytes.indexOf('>', tag) > at) return at;
  }
  return -1;
}

/**
 * The stream transform of `entry.server.tsx`: holds the document until `</head>`, rewrites that head
 * (prioritizeHead), makes React Router's module script inert on its way through the body (only when the head's
 * starter is there to run it), then passes the rest through untouched. Works on bytes: every pattern is ASCII, so a
 * multi-byte character cut between two chunks is never split by a rewrite.
 */
export function deferHydration(): Transform {
  let pending: Buffer | undefined = Buffer.alloc(0);
  let inHead = true;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (pending === undefined) {
        callback(null, chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      if (inHead) {
        const end = pending.indexOf(headEnd);
        if (end === -1) {
          callback();
          return;
        }
        const head = prioritizeHead(pending.subarray(0, end).toString('utf8'));
        this.push(Buffer.from(head));
        pending = pending.subarray(end);
        inHead = false;
        if (!head.includes(inertModuleType)) {
          const rest = pending;
          pending = undefined;
          callback(null, rest);
          return;
        }
      }
      const at = moduleAttributeAt(pending);
      if (at !== -1) {
        const out = Buffer.concat([pending.subarray(0, at), inertType, pending.subarray(at + moduleType.length)]);
        pending = undefined;
        callback(null, out);
        return;
      }
      // Keep for the next chunk only what could still become that tag: an opening `<script` not closed yet, or a
      // last `<`, `<s`, `<sc`… that may be the beginning of one.
      const last = pending.lastIndexOf(scriptOpen);
      const tail = pending.lastIndexOf('<');
      let keep = pending.length;
      if (last !== -1 && pending.indexOf('>', last) === -1) keep = last;
      else if (tail !== -1 && scriptOpen.subarray(0, pending.length - tail).equals(pending.subarray(tail))) keep = tail;
      const ready = pending.subarray(0, keep);
      pending = pending.subarray(keep);
      callback(null, ready.length > 0 ? ready : undefined);
    },
    flush(callback) {
      callback(null, pending && pending.length > 0 ? pending : undefined);
    },
  });
}
