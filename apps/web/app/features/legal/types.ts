import type { components } from '#app/lib/api-schema.d.ts';

/** The legal page as the page receives it: `bodyHtml` already sanitised by the loader. */
export type LegalPageData = components['schemas']['LegalPage'];
export type LegalPageSlug = LegalPageData['slug'];
export type Seller = components['schemas']['Seller'];
