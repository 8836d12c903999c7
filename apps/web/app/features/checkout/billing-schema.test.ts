import { describe, expect, it } from 'vitest';
import {
  type BillingValues,
  billingFieldOfApi,
  billingSchema,
  billingValuesOfForm,
  tidyRut,
  toInvoiceBody,
} from './billing-schema.ts';

const personalInformation = {
  address: ' Av. Providencia ',
  streetNumber: '1234',
  apartment: ' ',
  locality: 'Providencia',
  province: 'Metropolitana de Santiago',
};
const companyDetails = {
  name: 'Viajes Andinos SpA',
  id: '760864285',
  business: 'Agencia de viajes',
  address: 'Av. Apoquindo 4500',
  email: 'facturas@viajesandinos.cl',
};
const blankCompany = { name: '', id: '', business: '', address: '', email: '' };
const fieldsOf = (values: BillingValues) => {
  const result = billingSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('billingSchema', () => {
  it('accepts the address with an invoice for a company', () => {
    expect(fieldsOf({ personalInformation, generateInvoice: true, companyDetails })).toEqual([]);
  });
  it('checks the company only when an invoice is asked for', () => {
    expect(fieldsOf({ personalInformation, generateInvoice: false, companyDetails: blankCompany })).toEqual([]);
    const fields = fieldsOf({ personalInformation, generateInvoice: true, companyDetails: blankCompany });
    expect(fields).toContain('companyDetails.name');
    expect(fields).toContain('companyDetails.id');
  });
  it('refuses a company RUT with a wrong check digit', () => {
    const values = {
      personalInformation,
      generateInvoice: true,
      companyDetails: { ...companyDetails, id: '76086428-4' },
    };
    expect(fieldsOf(values)).toEqual(['companyDetails.id']);
  });
  it('asks for the address', () => {
    const values = {
      personalInformation: { ...personalInformation, address: '' },
      generateInvoice: false,
      companyDetails,
    };
    expect(fieldsOf(values)).toEqual(['personalInformation.address']);
  });
});

describe('toInvoiceBody', () => {
  it('trims, sends no apartment as null and formats the RUT', () => {
    const body = toInvoiceBody({ personalInformation, generateInvoice: true, companyDetails });
    expect(body.personalInformation.address).toBe('Av. Providencia');
    expect(body.personalInformation.apartment).toBeNull();
    expect(body.companyDetails?.id).toBe('76.086.428-5');
  });
  it('sends no company without an invoice', () => {
    expect(toInvoiceBody({ personalInformation, generateInvoice: false, companyDetails }).companyDetails).toBeNull();
  });
});

describe('tidyRut and billingFieldOfApi', () => {
  it('formats a valid RUT, leaves anything else as typed', () => {
    expect(tidyRut(' 760864285 ')).toBe('76.086.428-5');
    expect(tidyRut('76086428-4')).toBe('76086428-4');
  });
  it('knows the form’s fields', () => {
    expect(billingFieldOfApi('companyDetails.email')).toBe('companyDetails.email');
    expect(billingFieldOfApi('quotationId')).toBeNull();
  });
});

describe('billingValuesOfForm', () => {
  const posted = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };
  const address = Object.fromEntries(
    Object.entries(personalInformation).map(([name, value]) => [`personalInformation.${name}`, value]),
  );
  const company = Object.fromEntries(
    Object.entries(companyDetails).map(([name, value]) => [`companyDetails.${name}`, value]),
  );

  it('reads the named fields; with the box ticked the company is invoiced', () => {
    const read = billingValuesOfForm(posted({ ...address, generateInvoice: 'on', ...company }));
    expect(read).toEqual({ personalInformation, generateInvoice: true, companyDetails });
    expect(toInvoiceBody(read).companyDetails?.id).toBe('76.086.428-5');
  });

  it('ignores the company fields (always in the page) when the box is not ticked', () => {
    const read = billingValuesOfForm(posted({ ...address, ...company, 'companyDetails.id': 'not a RUT' }));
    expect(read.generateInvoice).toBe(false);
    expect(fieldsOf(read)).toEqual([]);
    expect(toInvoiceBody(read).companyDetails).toBeNull();
  });

  it('reads a field that was not sent as empty, for the rules to name it', () => {
    const { 'personalInformation.province': _province, ...withoutRegion } = address;
    expect(fieldsOf(billingValuesOfForm(posted(withoutRegion)))).toEqual(['personalInformation.province']);
  });
});
