import { describe, expect, it } from 'vitest';
import { slugOf } from './slug.ts';

describe('slugOf', () => {
  it('drops accents and punctuation, lower-cases and joins words with one hyphen', () => {
    expect(slugOf('¿Qué cubre una asistencia en viaje?')).toBe('que-cubre-una-asistencia-en-viaje');
    expect(slugOf('Viajar con niños: checklist antes de salir de Chile')).toBe(
      'viajar-con-ninos-checklist-antes-de-salir-de-chile',
    );
    expect(slugOf('Mundial 2026 — EE.UU.')).toBe('mundial-2026-ee-uu');
  });
});
