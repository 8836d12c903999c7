/**
 * The URL-safe slug of a title, as /blog-interior/{id}/{title} carries it: accents dropped, lower case, every run of
 * other characters one hyphen, none at either end («¿Qué cubre?» → «que-cubre»).
 */
export function slugOf(title: string): string {
  return title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
