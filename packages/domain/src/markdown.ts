import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize-html.ts';

/**
 * A blog post's Markdown (as the console's editor writes it) to the HTML the store shows: GitHub-flavoured Markdown
 * by `marked`, then the one allow-list (sanitize-html.ts), so raw HTML inside the Markdown (allowed by the format, and
 * how the seeded posts are written) keeps only what any stored content may hold. The API renders on save and the
 * console's preview renders the same way; the storefront sanitises the stored HTML again when it shows it.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

export function markdownToHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false })).trim();
}

/**
 * Whether Markdown holds markup no stored content may keep: script-like elements, event handlers, `style`
 * attributes, or links with a scheme that runs code. The console refuses such a text on save (in words) rather than
 * keep a source the rendering would silently change; markdownToHtml's allow-list stays the real gate.
 */
export function unsafeMarkdown(markdown: string): boolean {
  return /<\s*\/?\s*(script|iframe|object|embed|style|svg|math|form|input|link|meta|base)\b|\son[a-z]+\s*=|\sstyle\s*=|\b(javascript|vbscript|data)\s*:/i.test(
    markdown,
  );
}
