/**
 * The store's marketing scripts (spec §3 companyScriptTags, issue 25): each is stored as a base64 HTML tag of exactly
 * one of two forms the console writes — `<script>code</script>` or `<script src="https://…" async></script>` — and the
 * storefront renders only those, with the page's nonce (kept pages: its hash), so the Content-Security-Policy allows
 * them and nothing else (docs/decisions/013-cached-pages-hash-based-csp.md, addendum). Any other stored HTML is not
 * rendered.
 */
export type MarketingScript = { placement: 'head' | 'body' } & ({ code: string } | { src: string });

const inlinePattern = /^<script>([\s\S]*)<\/script>$/;
const srcPattern = /^<script src="(https:\/\/[^"<>\s]+)" async><\/script>$/;

/** The tag of a script, as stored (before base64). */
export function scriptTagHtml(script: MarketingScript): string {
  return 'code' in script ? `<script>${script.code}</script>` : `<script src="${script.src}" async></script>`;
}

/** The script a stored tag holds, or undefined for any other HTML. */
export function scriptOfTagHtml(html: string, placement: 'head' | 'body'): MarketingScript | undefined {
  const src = srcPattern.exec(html)?.[1];
  if (src) return { placement, src };
  const code = inlinePattern.exec(html)?.[1];
  if (code === undefined || !isSafeInlineCode(code)) return undefined;
  return { placement, code };
}

/** Inline code that cannot close its `<script>` element or open a comment the HTML parser would read differently. */
export function isSafeInlineCode(code: string): boolean {
  return !/<\/script|<!--|<script/i.test(code) && !code.includes('\0') && !code.includes('\r');
}

/** The origin of an https address (`https://host[:port]`), or undefined. */
export function httpsOriginOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && !parsed.username && !parsed.password ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The inline text the storefront runs for a script: its code, or for an external one a loader that adds the
 * `<script src>` (allowed by the loader's nonce or hash through 'strict-dynamic'; a parser-inserted `src` script would
 * make the page not keepable).
 */
export function inlineTextOf(script: MarketingScript): string {
  if ('code' in script) return script.code;
  return `(function(){var s=document.createElement('script');s.src=${JSON.stringify(script.src)};s.async=true;document.${script.placement}.appendChild(s);})();`;
}
