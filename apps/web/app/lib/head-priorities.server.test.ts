import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { deferHydration, inertModuleType, prioritizeHead } from './head-priorities.server.ts';

const head =
  '<!DOCTYPE html><html lang="es-CL"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/>' +
  '<link rel="preload" as="image" href="/img/logo.svg"/><title>Inicio</title>' +
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n1"/>' +
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="n1"/>' +
  '<link nonce="n1" rel="stylesheet" href="/assets/root-C.css"/>';
const moduleScript = '<script nonce="n1" type="module" async="">import * as route0 from "/assets/root-B.js";</script>';
const body = `</head><body><p>Hola ñandú</p><script nonce="n1">window.x = 1;</script>${moduleScript}<script nonce="n1">window.y = "type=\\"module\\"";</script></body></html>`;

describe('prioritizeHead', () => {
  it('puts the stylesheet right after charset and viewport and trades the module preloads for the starter script', () => {
    const out = prioritizeHead(head);
    expect(
      out.startsWith(
        '<!DOCTYPE html><html lang="es-CL"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/>' +
          '<link nonce="n1" rel="stylesheet" href="/assets/root-C.css"/>' +
          '<link rel="preload" as="image" href="/img/logo.svg"/><title>Inicio</title><script nonce="n1">',
      ),
    ).toBe(true);
    expect(out).not.toMatch(/<link[^>]*modulepreload/);
    expect(out).toContain('["/assets/entry.client-A.js","/assets/root-B.js"]');
    expect(out).toContain(`script[type="${inertModuleType}"]`);
  });

  it('changes nothing but the order when there is nothing to preload', () => {
    const plain = '<head><meta charSet="utf-8"/><title>x</title><link rel="stylesheet" href="/a.css"/>';
    expect(prioritizeHead(plain)).toBe(
      '<head><meta charSet="utf-8"/><link rel="stylesheet" href="/a.css"/><title>x</title>',
    );
  });
});

describe('deferHydration', () => {
  const run = async (pieces: Buffer[]) => text(Readable.from(pieces).pipe(deferHydration()));
  const expected = prioritizeHead(head) + body.replace(' type="module"', ` type="${inertModuleType}"`);

  it('rewrites head and module script whole or cut anywhere, multi-byte characters included', async () => {
    const whole = Buffer.from(head + body);
    expect(await run([whole])).toBe(expected);
    for (let cut = 1; cut < whole.length; cut += 7) {
      expect(await run([whole.subarray(0, cut), whole.subarray(cut)])).toBe(expected);
    }
    const single = [...whole].map((byte) => Buffer.from([byte]));
    expect(await run(single)).toBe(expected);
  });

  it('streams the body as it comes, holding back only what may be the start of the module script', async () => {
    const transform = deferHydration();
    const seen: string[] = [];
    transform.on('data', (chunk: Buffer) => seen.push(chunk.toString()));
    const paragraph = `</head><body>${'<p>Planes para tu viaje</p>'.repeat(40)}`;
    transform.write(Buffer.from(head + paragraph));
    transform.write(Buffer.from('<p>más</p><scr'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.join('')).toBe(`${prioritizeHead(head)}${paragraph}<p>más</p>`);
    transform.end(Buffer.from('ipt nonce="n1" type="module">import "/a.js";</script></body></html>'));
    await new Promise((resolve) => transform.once('end', resolve));
    expect(seen.join('')).toBe(
      `${prioritizeHead(head) + paragraph}<p>más</p><script nonce="n1" type="${inertModuleType}">import "/a.js";</script></body></html>`,
    );
  });

  it('leaves the only module script alone when the head preloads nothing, and a fragment as it came', async () => {
    const plain = `<html><head><title>x</title></head><body>${moduleScript}</body></html>`;
    expect(await run([Buffer.from(plain)])).toBe(plain);
    expect(await run([Buffer.from('<p>sin cabecera ñ</p>')])).toBe('<p>sin cabecera ñ</p>');
  });
});
