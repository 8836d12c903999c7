import { describe, expect, it } from 'vitest';
import { standingErrors } from './edited-errors.ts';

const notFound = [
  { field: 'numeroCertificado', code: 'certificate_not_found', message: 'No encontramos…' },
  { field: 'numeroDocumento', code: 'certificate_not_found', message: 'No encontramos…' },
];
const outside = { field: 'fechaIncidente', code: 'outside_cover', message: 'La fecha del incidente…' };
const rut = { field: 'numeroDocumento', code: 'invalid_rut', message: 'RUT inválido' };
const file = { field: 'documentos.1', code: 'invalid_file_type', message: 'El archivo «x.pdf»…' };
const amount = { field: 'monto', code: 'out_of_range', message: 'Ingresa un monto mayor que cero' };

describe('a claim form error goes as soon as its field is edited', () => {
  it('untouched, every error of the answer stands', () => {
    expect(standingErrors([...notFound, amount], new Set())).toStrictEqual([...notFound, amount]);
  });

  it("an edited field's own error goes; the others stay", () => {
    expect(standingErrors([amount, rut, file], new Set(['monto']))).toStrictEqual([rut, file]);
    expect(standingErrors([amount, rut, file], new Set(['documentos']))).toStrictEqual([amount, rut]);
  });

  it('«no certificate for that document» goes from both fields when either (or the document type) is edited', () => {
    for (const edited of ['numeroCertificado', 'numeroDocumento', 'tipoDocumento']) {
      expect(standingErrors([...notFound, amount], new Set([edited]))).toStrictEqual([amount]);
    }
    // A document's own format error does not depend on the certificate number.
    expect(standingErrors([rut], new Set(['numeroCertificado']))).toStrictEqual([rut]);
  });

  it('«outside the cover» goes when the date or the certificate changes', () => {
    expect(standingErrors([outside], new Set(['fechaIncidente']))).toStrictEqual([]);
    expect(standingErrors([outside], new Set(['numeroCertificado']))).toStrictEqual([]);
    expect(standingErrors([outside], new Set(['descripcion']))).toStrictEqual([outside]);
  });
});
