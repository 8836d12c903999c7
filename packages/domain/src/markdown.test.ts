import { describe, expect, it } from 'vitest';
import { markdownToHtml, unsafeMarkdown } from './markdown.ts';

describe('markdownToHtml', () => {
  it('renders headings, lists, emphasis and links, a title becoming an h2 (the page has its own h1)', () => {
    const html = markdownToHtml('# Antes de viajar\n\n- **Pasaporte** vigente\n- [Seguro](/cotizador)\n\nListo.');
    expect(html).toContain('<h2>Antes de viajar</h2>');
    expect(html).toContain('<li><strong>Pasaporte</strong> vigente</li>');
    expect(html).toContain('<a href="/cotizador" rel="noopener">Seguro</a>');
    expect(html).toContain('<p>Listo.</p>');
  });

  it('keeps the HTML a post may hold and drops scripts, handlers, javascript: links and styles', () => {
    const html = markdownToHtml(
      '<p>Hola</p>\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[clic](javascript:alert(1))\n\n<p style="background:url(javascript:alert(1))">x</p>',
    );
    expect(html).toContain('<p>Hola</p>');
    expect(html).not.toMatch(/<script|onerror|javascript:|style=/i);
  });
});

describe('unsafeMarkdown', () => {
  it('finds scripts, handlers, styles and code-running links, and lets ordinary writing through', () => {
    for (const text of [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '[clic](javascript:alert(1))',
      '[clic]( JaVaScRiPt:alert(1))',
      '<p style="color:red">x</p>',
      '<iframe src="https://e.example">',
      '![x](data:image/svg+xml;base64,PHN2Zz4=)',
    ]) {
      expect(unsafeMarkdown(text), text).toBe(true);
    }
    for (const text of [
      '# Título\n\n- una lista\n\n> una cita',
      '<p>Párrafo con <a href="/cotizador">enlace</a> y <strong>negrita</strong>.</p>',
      'Los datos: nombre y pasaporte. Hora de salida: 9:00.',
    ]) {
      expect(unsafeMarkdown(text), text).toBe(false);
    }
  });
});
