import { describe, expect, it } from 'vitest';
import { httpsOriginOf, inlineTextOf, scriptOfTagHtml, scriptTagHtml } from './marketing-scripts.ts';

describe('marketing scripts (issue 25): only the console’s two forms', () => {
  it('round-trips inline code and an https src', () => {
    const inline = { placement: 'head' as const, code: 'window.dataLayer = [];' };
    const external = { placement: 'body' as const, src: 'https://www.googletagmanager.com/gtag/js?id=G-1' };
    expect(scriptOfTagHtml(scriptTagHtml(inline), 'head')).toStrictEqual(inline);
    expect(scriptOfTagHtml(scriptTagHtml(external), 'body')).toStrictEqual(external);
    expect(inlineTextOf(external)).toContain('"https://www.googletagmanager.com/gtag/js?id=G-1"');
  });
  it('reads nothing else: other tags, attributes, http, a code that closes its element', () => {
    for (const html of [
      '<meta name="x" content="y">',
      '<script>a</script><script>b</script>',
      '<script type="module">a</script>',
      '<script src="http://x.cl/a.js" async></script>',
      '<script src="https://x.cl/a.js"></script>',
      '<img src=x onerror=alert(1)>',
      '<script>x<!--y</script>',
    ]) {
      expect(scriptOfTagHtml(html, 'body'), html).toBeUndefined();
    }
  });
  it('names an https origin, and nothing for others', () => {
    expect(httpsOriginOf('https://cdn.example:8443/a.js')).toBe('https://cdn.example:8443');
    expect(httpsOriginOf('http://cdn.example/a.js')).toBeUndefined();
    expect(httpsOriginOf('https://user:pw@cdn.example/')).toBeUndefined();
    expect(httpsOriginOf('nada')).toBeUndefined();
  });
});
