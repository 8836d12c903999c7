import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { winAnsi } from '#app/modules/certificates/pdf.ts';

describe('winAnsi (names on the certificate PDF)', () => {
  it.each([
    ['Łukasz', 'Lukasz'],
    ['Nguyễn', 'Nguyen'],
    ['Peña Ñuñoa', 'Peña Ñuñoa'],
    ['Zoë', 'Zoë'],
    ['王', '?'],
    ['¿Dónde? ¡Acá! Ü ü á é í ó ú Á É Í Ó Ú ñ Ñ', '¿Dónde? ¡Acá! Ü ü á é í ó ú Á É Í Ó Ú ñ Ñ'],
    ['Đorđe Ħal', 'Dorde Hal'],
    ['Straße Øyvind Ærø', 'Straße Øyvind Ærø'],
    ['Šťastný Dvořák', 'Šťastný Dvořák'.replace('ť', 't').replace('ř', 'r')],
    ['Şahin Çelik', 'Sahin Çelik'],
    ['Ａｎａ', 'Ana'],
    ['Ana 😀', 'Ana ?'],
    ['María – José — “Pepa” …', 'María – José — “Pepa” …'],
    ['Jean‐Luc', 'Jean-Luc'],
  ])('%s → %s', (input, expected) => {
    expect(winAnsi(input)).toBe(expected);
  });

  it('a name written decomposed (n + combining tilde) keeps its ñ', () => {
    expect(winAnsi('Pen\u0303a')).toBe('Peña');
    expect(winAnsi('q\u0301')).toBe('q');
  });

  it('whatever it answers, the PDF standard font can draw', async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const samples = ['Łukasz Nguyễn Peña Ñuñoa Zoë 王 Şahin Œuvre Žižek ½ € ™', 'Ａｎａ 😀 Đorđe'];
    for (const sample of samples) expect(() => font.encodeText(winAnsi(sample))).not.toThrow();
  });
});
