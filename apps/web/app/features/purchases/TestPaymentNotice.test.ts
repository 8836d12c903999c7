import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TestPaymentNotice } from './TestPaymentNotice.tsx';

describe('TestPaymentNotice', () => {
  it("says on the buyer's page that no certificate covers, and on a traveller's that hers does not", () => {
    expect(renderToStaticMarkup(createElement(TestPaymentNotice, { certificates: 'all' }))).toBe(
      '<p class="mb-6 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">Pago de prueba: no se cobró dinero y los certificados no otorgan cobertura.</p>',
    );
    expect(renderToStaticMarkup(createElement(TestPaymentNotice, { certificates: 'own' }))).toContain(
      '>Pago de prueba: no se cobró dinero y el certificado no otorga cobertura.</p>',
    );
  });
});
