import { inlineTextOf, type MarketingScript, scriptOfTagHtml } from '@travesia/domain/marketing-scripts';
import { useCspNonce } from '#app/lib/csp-nonce.ts';
import type { WebsiteParameters } from '#app/lib/website.ts';

function decodeBase64Utf8(value: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The company's marketing scripts of one placement that the store renders (only the console's two forms). */
export function marketingScriptsOf(
  website: Pick<WebsiteParameters, 'companyScriptTags' | 'features'>,
  placement: MarketingScript['placement'],
): MarketingScript[] {
  if (!website.features.remoteMarketingScript) return [];
  return website.companyScriptTags.flatMap((tag) => {
    if ((tag.isBodyScript ? 'body' : 'head') !== placement) return [];
    const html = decodeBase64Utf8(tag.customScript);
    const script = html === undefined ? undefined : scriptOfTagHtml(html, placement);
    return script ? [script] : [];
  });
}

/**
 * The company's marketing scripts (spec §4: only when the remote-marketing flag is on), published in the console
 * (kind `site-scripts`), written into the page by the server with the page's nonce: a kept page sends their hashes
 * instead (docs/decisions/013-cached-pages-hash-based-csp.md, addendum). They are no longer re-created in the browser
 * from stored HTML, which would have let any stored snippet run through the store's own trusted code; an external
 * script is added by a small inline loader (its origin is on the console's allow-list, checked by the API).
 */
export function MarketingScripts({
  website,
  placement,
}: {
  website: Pick<WebsiteParameters, 'companyScriptTags' | 'features'> | undefined;
  placement: MarketingScript['placement'];
}) {
  const nonce = useCspNonce();
  if (!website) return null;
  return marketingScriptsOf(website, placement).map((script) => {
    const text = inlineTextOf(script);
    return (
      <script
        key={text}
        nonce={nonce}
        data-marketing="company"
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: published, validated script text (see above)
        dangerouslySetInnerHTML={{ __html: text }}
      />
    );
  });
}
