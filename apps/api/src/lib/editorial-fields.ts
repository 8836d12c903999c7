import { z } from 'zod';

/**
 * A plain text an operator writes for the store (a label, a copyright line: issue 25): trimmed, not empty, at most
 * `max` characters, and without `<` or `>` — the store shows it as text, so markup is refused on save rather than
 * shown as code (and never reaches a page that would read it as HTML).
 */
export const plainText = (max: number, empty = 'Escribe un texto') =>
  z
    .string()
    .trim()
    .min(1, empty)
    .max(max, `A lo más ${max} caracteres`)
    .refine((value) => !/[<>]/.test(value), 'Sin etiquetas HTML (< o >): se muestra como texto');
