import { describe, expect, it } from 'vitest';
import { accessInputErrors } from './purchase.server.ts';

describe('«Mi compra» checks the form before asking the API', () => {
  it.each(['12.345.678-5', '12345678-5', '123456785'])('accepts the RUT %s in any format', (document) => {
    expect(accessInputErrors({ number: '123', documentType: 'rut', document })).toStrictEqual({});
  });

  it('says in words what is missing or wrong', () => {
    expect(accessInputErrors({ number: '', documentType: 'rut', document: '' })).toStrictEqual({
      number: 'Ingresa el N° de compra o de certificado.',
      document: 'Ingresa tu documento.',
    });
    expect(accessInputErrors({ number: '1', documentType: 'rut', document: '12.345.678-9' })).toStrictEqual({
      document: 'El RUT no es válido.',
    });
  });

  it('takes a DNI or passport as typed (no check digit)', () => {
    expect(accessInputErrors({ number: 'TRV-2026-1', documentType: 'passport', document: 'PX123456' })).toStrictEqual(
      {},
    );
  });
});
