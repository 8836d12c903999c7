import type { Role } from '#app/lib/contract.ts';

/**
 * «Textos legales» (issue 25 item 7): the storefront's /terminos, /politicas and /informacion-legal as the publishing
 * kind `legal-pages` (apps/api/src/modules/legal/legal-kind.ts), one item per page. Each publication is a new version
 * kept for good: a buyer's consent names the version it accepted.
 */
export const legalPageEditors: readonly Role[] = ['admin', 'content'];

export const legalPages = [
  { slug: 'terminos', label: 'Términos y condiciones' },
  { slug: 'politicas', label: 'Políticas de privacidad' },
  { slug: 'informacion-legal', label: 'Información legal' },
] as const;

export type LegalPageSlug = (typeof legalPages)[number]['slug'];

export type LegalPageBody = { title: string; description: string; bodyHtml: string };

/** The page the URL names (`?pagina=`), the terms by default. */
export function legalPageOf(value: string | null): (typeof legalPages)[number] {
  return legalPages.find((page) => page.slug === value) ?? legalPages[0];
}

export const legalPagePath = (slug: LegalPageSlug, rest = '') => `/legal-pages/${slug}${rest}`;

/** The form's fields as the body the API validates (and sanitises). */
export function legalPageFromForm(form: FormData): LegalPageBody {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  return { title: text('titulo'), description: text('descripcion'), bodyHtml: text('texto') };
}
