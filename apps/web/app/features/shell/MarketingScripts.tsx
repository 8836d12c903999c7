import { useEffect } from 'react';
import { useWebsite } from '#app/lib/website.ts';

function decodeBase64Utf8(value: string): string {
  const bytes = Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Injects the company's marketing snippets (base64 in website parameters) into head or body, only when the
 * remote-marketing flag is on (spec §4). Scripts are re-created so the browser runs them.
 */
export function MarketingScripts() {
  const { website } = useWebsite();
  const enabled = website.features.remoteMarketingScript;
  const tags = website.companyScriptTags;

  useEffect(() => {
    if (!enabled) return;
    const inserted: Node[] = [];
    for (const tag of tags) {
      let html: string;
      try {
        html = decodeBase64Utf8(tag.customScript);
      } catch {
        console.warn('Skipping a marketing snippet that is not valid base64');
        continue;
      }
      const target = tag.isBodyScript ? document.body : document.head;
      const template = document.createElement('template');
      template.innerHTML = html;
      for (const node of Array.from(template.content.childNodes)) {
        let toInsert: Node = node;
        if (node instanceof HTMLScriptElement) {
          const script = document.createElement('script');
          for (const attribute of Array.from(node.attributes)) script.setAttribute(attribute.name, attribute.value);
          script.text = node.text;
          toInsert = script;
        }
        if (toInsert instanceof Element) toInsert.setAttribute('data-marketing', 'company');
        target.appendChild(toInsert);
        inserted.push(toInsert);
      }
    }
    return () => {
      for (const node of inserted) node.parentNode?.removeChild(node);
    };
  }, [enabled, tags]);

  return null;
}
