import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeHtml } from './sanitize-html.ts';

describe('sanitizeHtml', () => {
  it('removes <script> elements with their text', () => {
    const out = sanitizeHtml('<p>Hola</p><script>alert(1)</script><SCRIPT src="https://evil.example/x.js"></SCRIPT>');
    expect(out).toBe('<p>Hola</p>');
  });

  it('removes event-handler attributes such as onerror= and onclick=', () => {
    const out = sanitizeHtml('<img src="https://cdn.example/a.png" alt="a" onerror="alert(1)"><p onclick="x()">t</p>');
    expect(out).not.toMatch(/onerror|onclick|alert/i);
    expect(out).toContain('<img src="https://cdn.example/a.png" alt="a"');
    expect(out).toContain('<p>t</p>');
  });

  it('removes javascript: and data: link addresses, in any case or with entities', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'jav&#x09;ascript:alert(1)',
      'data:text/html,x',
    ]) {
      const out = sanitizeHtml(`<a href="${href}">x</a>`);
      expect(out, href).not.toMatch(/javascript|data:|alert/i);
      expect(out, href).toContain('>x</a>');
    }
  });

  it('keeps http(s), mailto, tel and relative links, each with rel="noopener"', () => {
    expect(sanitizeHtml('<a href="https://travesia.cl">a</a>')).toBe(
      '<a href="https://travesia.cl" rel="noopener">a</a>',
    );
    expect(sanitizeHtml('<a href="/faq" rel="opener">b</a>')).toBe('<a href="/faq" rel="noopener">b</a>');
    expect(sanitizeHtml('<a href="mailto:hola@travesia.cl">c</a>')).toContain('href="mailto:hola@travesia.cl"');
    expect(sanitizeHtml('<a href="tel:+56226402020">d</a>')).toContain('href="tel:+56226402020"');
    expect(sanitizeHtml('<a href="https://x.cl" target="_blank">e</a>')).toBe(
      '<a href="https://x.cl" target="_blank" rel="noopener noreferrer">e</a>',
    );
    expect(sanitizeHtml('<a href="https://x.cl" target="evil">f</a>')).not.toContain('target');
  });

  it('keeps images only with an http(s) or relative source', () => {
    expect(sanitizeHtml('<img src="/img/a.svg" alt="A">')).toBe('<img src="/img/a.svg" alt="A" loading="lazy" />');
    expect(sanitizeHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="x">')).toBe('');
    expect(sanitizeHtml('<img src="javascript:alert(1)">')).toBe('');
    expect(sanitizeHtml('<img src="//evil.example/a.png">')).toBe('');
  });

  it('keeps content markup: headings, lists, tables, emphasis', () => {
    const html =
      '<h2>T</h2><p><strong>a</strong> <em>b</em></p><ul><li>1</li></ul><ol><li>2</li></ol>' +
      '<table><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td>c</td></tr></tbody></table>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('drops style, iframes, forms, styles and classes; turns an h1 into an h2', () => {
    const out = sanitizeHtml(
      '<h1 class="x" style="color:red">T</h1><style>p{}</style><iframe src="https://e.x"></iframe><form><input></form><svg onload="alert(1)"></svg>',
    );
    expect(out).toBe('<h2>T</h2>');
  });
});

describe('htmlToText', () => {
  it('drops CSS injection: style attributes with expression( or url(javascript:), and <style> blocks with their text', () => {
    const html = sanitizeHtml(
      '<p style="width:expression(alert(1))">a</p><span style="background:url(javascript:alert(1))">b</span>' +
        '<style>p{background:url(javascript:alert(1))}</style><img src="https://x.cl/a.png" style="x:expression(1)">',
    );
    expect(html).toBe('<p>a</p><span>b</span><img src="https://x.cl/a.png" loading="lazy" />');
  });

  it('keeps the words, separates blocks, drops scripts and decodes the basic entities', () => {
    expect(
      htmlToText('<p>Hola <strong>mundo</strong></p><ul><li>a &amp; b</li><li>c</li></ul><script>x()</script>'),
    ).toBe('Hola mundo a & b c');
  });
});
