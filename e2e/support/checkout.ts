import type { APIRequestContext, Page } from '@playwright/test';
import { DocumentType, Nationality, PassengerType } from '@travesia/domain/ids';
import { expect } from './fixtures.ts';
import { tripDates } from './quote.ts';
import { openHydrated } from './shell.ts';

/** A two-traveller quotation for Europe with a plan chosen, created through the API as the quoter would. */
export async function createQuotation(request: APIRequestContext, planId = 411): Promise<string> {
  const { departure, back } = tripDates(15, 8);
  const created = await request.post('/api/quotations/1', {
    data: {
      origin: 1,
      destination: 3,
      modality: 1,
      departureDate: departure,
      returnDate: back,
      passangerTypes: [
        { passengerTypeId: PassengerType.upTo74, quantity: 1 },
        { passengerTypeId: PassengerType.from75To84, quantity: 1 },
      ],
      planId,
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Steps 1 and 2 saved through the API (the checkout journey's pages cover entering them). */
/** One traveller as step 1 saves it; the default pair is Pedro (RUT) and Jorge (75–84 band). */
export type TravellerInput = {
  firstName: string;
  birthDate: string;
  document: { type: number; id: string };
  email: string;
};

const defaultTravellers: TravellerInput[] = [
  {
    firstName: 'Pedro',
    birthDate: '1985-07-01',
    document: { type: DocumentType.rut, id: '7.654.321-6' },
    email: 'pedro@example.cl',
  },
  {
    firstName: 'Jorge',
    birthDate: '1946-05-10',
    document: { type: DocumentType.rut, id: '12.345.678-5' },
    email: 'jorge@example.cl',
  },
];

export async function savePassengersAndInvoice(
  request: APIRequestContext,
  id: string,
  travellers: TravellerInput[] = defaultTravellers,
) {
  const countries = (await (await request.get('/api/companies/1/destinations/3/countries')).json()) as {
    id: number;
  }[];
  const passenger = ({ firstName, birthDate, document, email }: TravellerInput) => ({
    firstName,
    lastName: 'Muñoz',
    gender: 'M',
    birthDate,
    nationality: Nationality.chile,
    document,
    email,
    phone: '+56911112222',
    emergencyContact: null,
  });
  const saved = await request.put(`/api/quotations/${id}/passangers`, {
    data: {
      shareEmergencyContact: true,
      emergencyContact: { firstName: 'Ana', lastName: 'Rojas', phone: '+56223456789' },
      countryDestination: countries[0]?.id,
      passangers: travellers.map(passenger),
    },
  });
  expect(saved.status(), await saved.text()).toBe(204);
  await saveBoletaDetails(request, id);
}

/** Step 2 saved through the API: a boleta to an address in Santiago. */
export async function saveBoletaDetails(request: APIRequestContext, id: string) {
  const invoice = await request.post(`/api/quotations/${id}/invoice-details`, {
    data: {
      personalInformation: {
        address: 'Los Leones',
        streetNumber: '100',
        apartment: null,
        locality: 'Providencia',
        province: 'Metropolitana de Santiago',
      },
      generateInvoice: false,
      companyDetails: null,
    },
  });
  expect(invoice.status()).toBe(204);
}

/** Starts a sandbox payment of the quotation; answers the gateway's page path. */
export async function startSandboxPayment(request: APIRequestContext, quotationId: string): Promise<string> {
  const started = await request.post('/api/payments', {
    data: { quotationId, gatewayId: 'sandbox', consents: { dataProcessing: true, marketing: false } },
  });
  expect(started.status()).toBe(201);
  const { redirectUrl } = (await started.json()) as { redirectUrl: string };
  return new URL(redirectUrl).pathname + new URL(redirectUrl).search;
}

/** Pays a fresh quotation from this browser (the buyer's own) and answers the full /exito address. */
export async function payAsTheBuyer(page: Page, request: APIRequestContext): Promise<string> {
  const id = await createQuotation(request);
  await savePassengersAndInvoice(request, id);
  await openHydrated(page, `/pago/411/${id}`);
  // No gateway is preselected (issue #13): the buyer chooses the sandbox.
  await page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' }).check();
  await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
  await page.getByRole('button', { name: /^Pagar / }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\//);
  await page.getByRole('button', { name: 'Aprobar pago' }).click();
  await page.waitForURL(/\/exito\?venta=\d+&transaccion=\d+/);
  return new URL(page.url()).pathname + new URL(page.url()).search;
}

/** A fresh quotation paid through the sandbox by API calls alone (no browser); answers its sale id (idVenta). */
export async function paidThroughApi(request: APIRequestContext): Promise<number> {
  const id = await createQuotation(request);
  await savePassengersAndInvoice(request, id);
  const gatewayPage = await startSandboxPayment(request, id);
  const decided = await request.post(gatewayPage, { form: { decision: 'approve', instalments: '1' }, maxRedirects: 0 });
  expect(decided.status()).toBe(303);
  const back = new URL(decided.headers().location ?? '');
  const result = await request.get(back.pathname + back.search, { maxRedirects: 0 });
  expect(result.status()).toBe(303);
  return Number(new URL(result.headers().location ?? '', 'http://x').searchParams.get('venta'));
}
