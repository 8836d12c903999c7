import type { Role } from '#app/lib/contract.ts';

/**
 * «Geografía» (issue 25, item 5): the regions (destinations) with their countries and the modalities they are sold
 * for, the countries and the origins — the publishing kind `geography` (apps/api/src/modules/catalog/geography.ts).
 * The form names each field by position; `geographyFromForm` builds the body the API validates.
 */
export const geographyEditors: readonly Role[] = ['admin', 'content'];

export const geographyPath = (rest = '') => `/geography/main${rest}`;

export type Region = { id: number | null; code: string; label: string; modalityIds: number[]; countries: string[] };
/** `schengen`: its certificates carry the English statement a Schengen visa asks for. */
export type Country = { id: number | null; isoCode: string; label: string; schengen: boolean };
export type Origin = { id: number | null; label: string };
export type GeographyBody = { regions: Region[]; countries: Country[]; origins: Origin[] };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
};
const idOf = (form: FormData, name: string) => {
  const value = Number(text(form, name));
  return Number.isInteger(value) && value > 0 ? value : null;
};
/** How many rows of `prefix` the form has (`<prefix>-<n>-…` fields, one more blank row to add one). */
const rowsOf = (form: FormData, prefix: string) =>
  new Set([...form.keys()].flatMap((key) => key.match(new RegExp(`^${prefix}-(\\d+)-`))?.[1] ?? [])).size;

/**
 * The body of the form: rows marked «Borrar» are left out (the API refuses to delete what a quotation names, and says
 * to retire it), blank new rows are ignored; a region's countries are ISO codes separated by commas or spaces.
 */
export function geographyFromForm(form: FormData): GeographyBody {
  const rows = (prefix: string) => Array.from({ length: rowsOf(form, prefix) }, (_, n) => `${prefix}-${n}`);
  const kept = (row: string) => form.get(`${row}-borrar`) !== 'si';
  const regions = rows('region')
    .filter(kept)
    .map((row) => ({
      id: idOf(form, `${row}-id`),
      code: text(form, `${row}-codigo`),
      label: text(form, `${row}-nombre`),
      modalityIds: form.getAll(`${row}-modalidad`).map(Number).filter(Number.isInteger),
      countries: text(form, `${row}-paises`)
        .toUpperCase()
        .split(/[\s,;]+/)
        .filter(Boolean),
    }))
    .filter((region) => region.id !== null || region.code || region.label);
  const countries = rows('pais')
    .filter(kept)
    .map((row) => ({
      id: idOf(form, `${row}-id`),
      isoCode: text(form, `${row}-iso`).toUpperCase(),
      label: text(form, `${row}-nombre`),
      schengen: form.get(`${row}-schengen`) === 'si',
    }))
    .filter((country) => country.id !== null || country.isoCode || country.label);
  const origins = rows('origen')
    .filter(kept)
    .map((row) => ({ id: idOf(form, `${row}-id`), label: text(form, `${row}-nombre`) }))
    .filter((origin) => origin.id !== null || origin.label);
  return { regions, countries, origins };
}

/** The API's field path (regions.2.label) in words for the error list. */
export function fieldInWords(field: string): string {
  const [list, index, name] = field.split('.');
  const what = { regions: 'Región', countries: 'País', origins: 'Origen' }[list ?? ''];
  if (!what || index === undefined) return field;
  const names: Record<string, string> = {
    code: 'código',
    label: 'nombre',
    isoCode: 'código ISO',
    countries: 'países',
    modalityIds: 'modalidades',
  };
  return `${what} ${Number(index) + 1}${name ? ` · ${names[name] ?? name}` : ''}`;
}
