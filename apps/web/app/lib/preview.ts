/** The console's preview link parameter (issue 25): a signed token for a draft (prices, or the site's shell). */
export const previewParameter = 'vista-previa';

/** What a preview page says about itself: never kept by anyone, never indexed (the API says the same of its own). */
export const previewHeaders = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } as const;

/** Whether a request is a preview (a valid token or not): its page is never kept nor indexed. */
export const isPreviewRequest = (url: string) => new URL(url).searchParams.has(previewParameter);
