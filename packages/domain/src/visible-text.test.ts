import { describe, expect, it } from 'vitest';
import { refundDocument, refundRequestFields } from './refunds.ts';
import { contactFormSchema, optionalText, personName, tripFields } from './rules.ts';
import { visibleText } from './visible-text.ts';

const esc = '\u001b';

describe('visitor text keeps no control or invisible characters', () => {
  it.each([
    [`boleta${esc}[2J${esc}]0;owned\u0007.pdf`, 'boleta[2J]0;owned.pdf'],
    ['a\u0000b\u0008c\u007fd', 'abcd'],
    ['C1\u0080\u009b31m', 'C131m'],
    ['boleta\u202efdp.exe', 'boletafdp.exe'],
    ['zero\u200bwidth\ufeff\u2066x\u2069', 'zerowidthx'],
    ['Ana\tMaría\nPérez\r\nSoto', 'Ana María Pérez Soto'],
    ['línea\u2028otra', 'línea otra'],
    ['Ñandú 👩‍👩‍👧 «bien»', 'Ñandú 👩‍👩‍👧 «bien»'],
  ])('one-line %j → %j', (input, expected) => {
    expect(visibleText(input)).toBe(expected);
  });

  it('a multi-line text keeps its line breaks (as \\n) and loses the rest', () => {
    expect(visibleText(`Primero\r\nluego\rdespués\u2028fin${esc}[31m\tya`, { multiline: true })).toBe(
      'Primero\nluego\ndespués\nfin[31m ya',
    );
  });

  it('the shared text rules apply it before their checks: what the API stores and the form sends is clean', () => {
    expect(personName.parse(` Ana${esc}[1m\u0007 `)).toBe('Ana[1m');
    expect(optionalText(20).parse(`56${esc}`)).toBe('56');
    expect(tripFields.discountCode.parse(`\u202eVERANO`)).toBe('VERANO');
    // Only control characters: blank, so `required`.
    expect(personName.safeParse(`${esc}\u0007`).success).toBe(false);
    expect(refundRequestFields.nombreTitular.parse(`Rosa${esc}]8;;http://x${esc}\\Pérez`)).toBe(
      'Rosa]8;;http://x\\Pérez',
    );
    expect(refundRequestFields.descripcion.parse(`Me caí.\r\nFui a la clínica.${esc}[2J`)).toBe(
      'Me caí.\nFui a la clínica.[2J',
    );
    expect(refundDocument.parse({ nombre: `informe${esc}[8m\n.pdf`, contenido: 'JVBERi0=' }).nombre).toBe(
      'informe[8m .pdf',
    );
    const contact = contactFormSchema.parse({
      fullName: `Diego\u0000 Muñoz`,
      email: 'diego@example.cl',
      phone: '+56 9 1234 5678',
      idSubject: 1,
      detail: `Hola,\r\nnecesito ayuda.${esc}[5m`,
    });
    expect(contact).toMatchObject({ fullName: 'Diego Muñoz', detail: 'Hola,\nnecesito ayuda.[5m' });
  });
});
