import sanitize from 'sanitize-html';

/**
 * The one gate between stored content HTML (the company's customHtml, values, FAQ answers, blog bodies, legal
 * pages) and a page. Loaders call it on the server, so the sanitiser never ships in the client bundle and the page
 * receives HTML that is already safe to hand to `dangerouslySetInnerHTML`.
 *
 * Allow-list, not block-list: content markup (headings, paragraphs, lists, tables, quotes, emphasis, links and
 * images) and nothing else. Scripts, styles, iframes, forms, event handlers (`onerror=`…), `style` and `class`
 * attributes are removed; `<script>`/`<style>` lose their text too. Links keep http, https, mailto and tel
 * addresses or relative paths (never `javascript:` or `data:`) and always get `rel="noopener"` (plus
 * `noreferrer` when they open a new tab). Images keep http(s) or relative sources only. A stored `<h1>` becomes
 * an `<h2>`: the page's own title is its one h1.
 */
const options: sanitize.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'small',
    'sub',
    'sup',
    'mark',
    'abbr',
    'code',
    'pre',
    'span',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    abbr: ['title'],
    ol: ['start'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object'],
  transformTags: {
    h1: 'h2',
    a: (tagName, { target, rel: _ignored, ...attribs }) => ({
      tagName,
      attribs:
        target === '_blank'
          ? { ...attribs, target, rel: 'noopener noreferrer' }
          : { ...attribs, ...(target === '_self' ? { target } : {}), rel: 'noopener' },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
  },
  // An <img> whose source was refused is left with no src: drop it rather than render a broken image.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

export function sanitizeHtml(html: string): string {
  return sanitize(html, options);
}

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * The words of stored HTML without any markup (for search and descriptions): block ends become spaces so
 * «<p>a</p><p>b</p>» reads «a b», scripts and styles lose their text. Render it as text, never as HTML.
 */
export function htmlToText(html: string): string {
  const spaced = html.replace(/<\/(?:p|li|h[1-6]|td|th|tr|div|blockquote|dd|dt|figcaption)\s*>|<br\s*\/?>/gi, '$& ');
  return sanitize(spaced, { allowedTags: [], allowedAttributes: {}, nonTextTags: options.nonTextTags })
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => entities[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}
