import { isValidRut } from '@travesia/domain/rut';
import { createCookie, data, redirect, redirectDocument } from 'react-router';
import { pageHostHeaders, serverApi } from '#app/lib/api.server.ts';
import { fieldErrors, type LoadContext, rateLimitedMessage, unavailableMessage } from '#app/lib/api-answer.server.ts';
import { webConfig } from '#app/lib/config.server.ts';
import { fromChileanDate } from '#app/lib/dates.ts';
import { cookieSecrets } from '#app/lib/secrets.server.ts';
import { forgetSale, rememberedSale } from '../checkout/checkout.server.ts';
import {
  type AccessInput,
  type AddOnsToBuy,
  type DateChangeForm,
  type DocumentKind,
  documentKinds,
  type Purchase,
  type PurchasePageState,
  type TravellerPurchase,
} from './purchase.ts';

/**
 * The proof that this browser opened «Mi compra»: the API's access token (random, stored hashed there, 30 minutes),
 * in a signed HttpOnly SameSite=Lax cookie, Secure in production; «Salir» and its expiry end it.
 */
const accessCookie = createCookie('travesia-mi-compra', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  secure: webConfig.production,
  secrets: cookieSecrets(),
});

async function accessToken(request: Request): Promise<string | null> {
  try {
    const value: unknown = await accessCookie.parse(request.headers.get('Cookie'));
    return typeof value === 'string' && value.length > 0 ? value : null;
  } catch {
    return null;
  }
}

const keep = (token: string, expiresAt: string) => accessCookie.serialize(token, { expires: new Date(expiresAt) });
const forget = () => accessCookie.serialize('', { maxAge: 0 });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Back to «Mi compra» after setting or clearing its cookie: never stored by a browser or proxy (route headers do not
 * reach a thrown redirect), and the address it came from (an e-mailed link) sent on to nobody.
 */
function purchaseRedirect(cookies: string[]) {
  const headers = new Headers({ 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'same-origin' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return redirect('/mi-compra', { headers });
}

/** The page of an open purchase: the buyer's whole purchase, or a traveller's own trip (the API decides which). */
const travellerPage = (purchase: TravellerPurchase): PurchasePageState => ({ step: 'traveller', purchase });

const emptyInput: AccessInput = { number: '', documentType: 'rut', document: '' };
const requestStep = (message: string | null = null, input = emptyInput): PurchasePageState => ({
  step: 'request',
  input,
  errors: {},
  message,
});

export const expiredMessage = 'Tu acceso a «Mi compra» terminó. Pide un código nuevo para volver a entrar.';
export const linkMessage = 'El enlace no es válido o ya venció. Pide un código con tu N° de compra y tu documento.';
export const codeMessage = 'El código no es válido o ya venció. Revísalo o pide uno nuevo.';

/**
 * GET /mi-compra: the purchase when this browser holds a live access; the signed link of an e-mail (`?enlace=`)
 * is exchanged for one and the address is cleaned (the link never stays in the history); otherwise the form.
 */
export async function loadPurchasePage(context: LoadContext, request: Request) {
  const api = serverApi(context);
  const link = new URL(request.url).searchParams.get('enlace');
  if (link !== null) {
    const opened = await api.POST('/purchases/access/link', { body: { link: link.slice(0, 200) } });
    if (opened.data) throw purchaseRedirect([await keep(opened.data.token, opened.data.expiresAt)]);
    const message = opened.response.status === 429 ? rateLimitedMessage : linkMessage;
    return data(requestStep(opened.response.status === 400 ? linkMessage : message), {
      status: opened.response.status === 400 ? 400 : opened.response.status === 429 ? 429 : 503,
    });
  }
  const token = await accessToken(request);
  const found = token ? await api.GET('/purchases/mine', { params: { header: bearer(token) } }) : null;
  if (found?.data) {
    if (found.data.role === 'traveller') return data(travellerPage(found.data));
    const back = new URL(request.url).searchParams.get('cambio');
    const notice = back === 'pagado' ? paidChangeNotice : back === 'no-pagado' ? unpaidChangeNotice : null;
    const addOnsToBuy = await addOnsToBuyOf(context, token);
    return data<PurchasePageState>({ step: 'purchase', purchase: found.data, notice, addOnsToBuy });
  }
  if (found && found.response.status !== 404) return data(requestStep(unavailableMessage), { status: 503 });
  const paid = await openPaidInThisBrowser(context, request);
  if (paid) return paid;
  if (!found) return data(requestStep());
  return data(requestStep(expiredMessage), { headers: { 'Set-Cookie': await forget() } });
}

/**
 * The browser that paid a sale is its buyer: the sale's access token it holds (the payment step's signed cookie, the
 * proof /exito reads too) opens «Mi compra» as the buyer without a code. The purchase is shown at once with the new
 * access cookie (no redirect: nothing to loop on). Null when this browser paid nothing, or nothing paid yet.
 */
async function openPaidInThisBrowser(context: LoadContext, request: Request) {
  const sale = await rememberedSale(request);
  if (!sale) return null;
  const api = serverApi(context);
  const opened = await api.POST('/purchases/access/sale', {
    body: { idVenta: sale.idVenta, token: sale.accessToken },
  });
  if (!opened.data) return null;
  const found = await api.GET('/purchases/mine', { params: { header: bearer(opened.data.token) } });
  if (!found.data) return null;
  const headers = { 'Set-Cookie': await keep(opened.data.token, opened.data.expiresAt) };
  if (found.data.role === 'traveller') return data(travellerPage(found.data), { headers });
  return data<PurchasePageState>({ step: 'purchase', purchase: found.data }, { headers });
}

function inputOf(form: FormData): AccessInput {
  const kind = String(form.get('documentType') ?? '');
  return {
    number: String(form.get('number') ?? '')
      .trim()
      .slice(0, 40),
    documentType: documentKinds.some((k) => k.value === kind) ? (kind as DocumentKind) : 'rut',
    document: String(form.get('document') ?? '')
      .trim()
      .slice(0, 30),
  };
}

/** The form's own checks (the API checks again): both fields, and a RUT with its check digit. */
export function accessInputErrors(input: AccessInput): Partial<Record<keyof AccessInput, string>> {
  const errors: Partial<Record<keyof AccessInput, string>> = {};
  if (!input.number) errors.number = 'Ingresa el N° de compra o de certificado.';
  if (!input.document) errors.document = 'Ingresa tu documento.';
  else if (input.documentType === 'rut' && !isValidRut(input.document)) errors.document = 'El RUT no es válido.';
  return errors;
}

/** POST /mi-compra: ask for a code, check it, or «Salir». Every step works as a plain form post. */
/** What can still be added to each traveller, when something can (a purchase that cannot change answers none). */
async function addOnsToBuyOf(context: LoadContext, token: string | null | undefined): Promise<AddOnsToBuy | null> {
  if (!token) return null;
  const found = await serverApi(context).GET('/purchases/mine/add-ons', { params: { header: bearer(token) } });
  if (!found.data) return null;
  return found.data.travellers.some((traveller) => traveller.offers.length > 0) ? found.data : null;
}

/**
 * «Agregar adicionales» (issue 27 §1): the boxes ticked per traveller (`adicional-{seq}`, add-on ids) are sent to the
 * API, which prices them and answers where to pay; a refusal shows the purchase again with why.
 */
async function addOnPurchaseAction(context: LoadContext, request: Request, form: FormData) {
  const api = serverApi(context);
  const token = await accessToken(request);
  if (!token) return data(requestStep(expiredMessage), { headers: { 'Set-Cookie': await forget() } });
  const headers = bearer(token);
  const travellers = [...new Set([...form.keys()].filter((key) => /^adicional-\d{1,2}$/.test(key)))]
    .map((key) => ({
      seq: Number(key.slice('adicional-'.length)),
      adicionales: form
        .getAll(key)
        .map(Number)
        .filter((id) => Number.isSafeInteger(id) && id > 0)
        .slice(0, 10),
    }))
    .filter((traveller) => traveller.adicionales.length > 0)
    .slice(0, 9);
  const current = await api.GET('/purchases/mine', { params: { header: headers } });
  if (!current.data) {
    if (current.response.status === 404) {
      return data(requestStep(expiredMessage), { headers: { 'Set-Cookie': await forget() } });
    }
    return data(requestStep(unavailableMessage), { status: 503 });
  }
  if (current.data.role === 'traveller') return data(travellerPage(current.data), { status: 403 });
  const purchase = current.data;
  const again = async (status: number, addOnsError: string) =>
    data<PurchasePageState>(
      { step: 'purchase', purchase, addOnsToBuy: await addOnsToBuyOf(context, token), addOnsError },
      { status },
    );
  if (travellers.length === 0) return again(400, 'Elige al menos un adicional.');
  const done = await api.POST('/purchases/mine/add-ons', {
    params: { header: headers },
    body: { travellers },
    headers: pageHostHeaders(request),
  });
  if (!done.data) {
    const status = done.response.status;
    const message = fieldErrors(done.error)[0]?.message ?? (status === 429 ? rateLimitedMessage : unavailableMessage);
    return again(status >= 500 ? 503 : status, message);
  }
  if (done.data.redirectUrl) throw redirectDocument(done.data.redirectUrl);
  const after = await api.GET('/purchases/mine', { params: { header: headers } });
  return data<PurchasePageState>({
    step: 'purchase',
    purchase: after.data?.role === 'buyer' ? after.data : purchase,
    notice: paidChangeNotice,
  });
}

export async function purchasePageAction(context: LoadContext, request: Request) {
  const api = serverApi(context);
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const input = inputOf(form);

  if (intent === 'salir') {
    const token = await accessToken(request);
    if (token) await api.DELETE('/purchases/mine/access', { params: { header: bearer(token) } });
    // On a shared computer «Salir» must stick: this browser also forgets the sale it paid (which would open it again).
    throw purchaseRedirect([await forget(), await forgetSale()]);
  }

  if (intent === 'retracto' || intent === 'retractarme') return withdrawalAction(context, request, intent);
  if (intent === 'agregar-adicionales') return addOnPurchaseAction(context, request, form);
  if (intent === 'cambiar-fechas' || intent === 'ver-cambio-fechas') {
    return dateChangeAction(context, request, form, intent === 'cambiar-fechas');
  }

  const errors = accessInputErrors(input);
  if (Object.keys(errors).length > 0) {
    return data<PurchasePageState>({ step: 'request', input, errors, message: null }, { status: 400 });
  }

  if (intent === 'codigo') {
    const code = String(form.get('code') ?? '').replace(/\s+/g, '');
    if (!/^\d{6}$/.test(code)) {
      return data<PurchasePageState>(
        { step: 'code', input, error: 'Ingresa los 6 dígitos del código.' },
        { status: 400 },
      );
    }
    const checked = await api.POST('/purchases/access/code', { body: { ...input, code } });
    if (checked.data) throw purchaseRedirect([await keep(checked.data.token, checked.data.expiresAt)]);
    const { status } = checked.response;
    const error = status === 400 ? codeMessage : status === 429 ? rateLimitedMessage : unavailableMessage;
    return data<PurchasePageState>({ step: 'code', input, error }, { status: status === 400 ? 400 : 503 });
  }

  const asked = await api.POST('/purchases/access', { body: input });
  if (asked.response.status === 202) return data<PurchasePageState>({ step: 'code', input, error: null });
  if (asked.response.status === 400) {
    return data<PurchasePageState>(
      { step: 'request', input, errors: { document: 'Revisa el documento ingresado.' }, message: null },
      { status: 400 },
    );
  }
  const message = asked.response.status === 429 ? rateLimitedMessage : unavailableMessage;
  return data<PurchasePageState>({ step: 'request', input, errors: {}, message }, { status: 503 });
}

export const withdrawalFailedMessage =
  'No pudimos registrar tu retracto en este momento. Intenta nuevamente en unos minutos o contáctanos.';

/**
 * «Retractarme» (intent `retracto`) shows the one confirmation; «Sí, retractarme» (`retractarme`) withdraws and goes
 * back to the purchase (post/redirect/get), which then says «Retracto en proceso» or «Compra anulada y reembolsada».
 */
async function withdrawalAction(context: LoadContext, request: Request, intent: 'retracto' | 'retractarme') {
  const api = serverApi(context);
  const token = await accessToken(request);
  if (!token) return data(requestStep(expiredMessage), { status: 401 });
  const current = async (extra: { confirmWithdrawal?: boolean; withdrawalError?: string | null }, status = 200) => {
    const found = await api.GET('/purchases/mine', { params: { header: bearer(token) } });
    // A traveller is offered no withdrawal (the API refuses it with a 403 anyway): her own page again.
    if (found.data?.role === 'traveller') return data(travellerPage(found.data), { status: 403 });
    if (found.data) return data<PurchasePageState>({ step: 'purchase', purchase: found.data, ...extra }, { status });
    if (found.response.status === 404) {
      return data(requestStep(expiredMessage), { status: 401, headers: { 'Set-Cookie': await forget() } });
    }
    return data(requestStep(unavailableMessage), { status: 503 });
  };
  if (intent === 'retracto') return current({ confirmWithdrawal: true });
  const withdrawn = await api.POST('/purchases/mine/withdrawal', { params: { header: bearer(token) } });
  if (withdrawn.data) throw redirect('/mi-compra');
  const { status } = withdrawn.response;
  if (status === 409) return current({ withdrawalError: withdrawn.error?.detail ?? withdrawalFailedMessage }, 409);
  if (status === 404) return current({});
  return current({ withdrawalError: withdrawalFailedMessage }, 503);
}

export const paidChangeNotice =
  'Pagaste la diferencia y aplicamos el cambio a tu viaje. Te enviamos los nuevos certificados por correo; los anteriores quedaron anulados.';
export const unpaidChangeNotice = 'El pago de la diferencia no se completó: tu compra no cambió.';
/** What an applied change did: «las fechas», «el país de destino» or both, for the notice after it. */
function changedText(before: Purchase, after: { departureDate: string; returnDate: string; countryId: number | null }) {
  const dates = before.departureDate !== after.departureDate || before.returnDate !== after.returnDate;
  const country = (before.destinationCountry?.id ?? null) !== after.countryId;
  return dates && country ? 'las fechas y el país de destino' : country ? 'el país de destino' : 'las fechas';
}
const refundNotice = (what: string) =>
  `Cambiamos ${what} de tu viaje y solicitamos la devolución de la diferencia a tu medio de pago. Te enviamos los nuevos certificados por correo; los anteriores quedaron anulados.`;
const sameNotice = (what: string) =>
  `Cambiamos ${what} de tu viaje sin costo adicional. Te enviamos los nuevos certificados por correo; los anteriores quedaron anulados.`;

/** A date as the page posts it: dd-mm-aaaa as typed in the store's date field, or ISO (the confirmation's hidden fields). */
const isoDay = (value: FormDataEntryValue | null) => {
  const text = String(value ?? '').trim();
  return fromChileanDate(text) ?? text.slice(0, 10);
};

/** The «País de destino» chosen: a catalogue id, or nothing (the purchase's own country stays). */
const countryOf = (value: FormDataEntryValue | null) =>
  String(value ?? '')
    .trim()
    .slice(0, 10);

/**
 * «Cambiar fechas» (dates, and the country inside the same region): `ver-cambio-fechas` asks the API for the new
 * price (nothing changes); `cambiar-fechas` confirms,
 * which either sends the browser to the gateway to pay the difference or applies the change and shows the purchase
 * with its new dates. Plain form posts: it works without JavaScript.
 */
async function dateChangeAction(context: LoadContext, request: Request, form: FormData, confirm: boolean) {
  const api = serverApi(context);
  const token = await accessToken(request);
  if (!token) return data(requestStep(expiredMessage), { headers: { 'Set-Cookie': await forget() } });
  const headers = bearer(token);
  const input = {
    departureDate: isoDay(form.get('departureDate')),
    returnDate: isoDay(form.get('returnDate')),
    countryDestination: countryOf(form.get('countryDestination')),
  };
  // A value that is not a number reaches the API as null, which answers the field's own error.
  const body = {
    departureDate: input.departureDate,
    returnDate: input.returnDate,
    ...(input.countryDestination ? { countryDestination: Number(input.countryDestination) } : {}),
  };
  const current = await api.GET('/purchases/mine', { params: { header: headers } });
  if (!current.data) {
    if (current.response.status === 404) {
      return data(requestStep(expiredMessage), { headers: { 'Set-Cookie': await forget() } });
    }
    return data(requestStep(unavailableMessage), { status: 503 });
  }
  // Only the buyer changes dates (the API refuses a traveller with a 403): her own page again.
  if (current.data.role === 'traveller') return data(travellerPage(current.data), { status: 403 });
  const purchase = current.data;
  const failed = (status: number, error: unknown) => {
    const dateChange: DateChangeForm = { input, errors: {}, preview: null };
    for (const problem of fieldErrors(error)) {
      if (
        problem.field === 'departureDate' ||
        problem.field === 'returnDate' ||
        problem.field === 'countryDestination'
      ) {
        dateChange.errors[problem.field] ??= problem.message;
      } else dateChange.errors.form ??= problem.message;
    }
    if (Object.keys(dateChange.errors).length === 0) {
      dateChange.errors.form = status === 429 ? rateLimitedMessage : unavailableMessage;
    }
    return data<PurchasePageState>(
      { step: 'purchase', purchase, dateChange },
      { status: status >= 500 ? 503 : status },
    );
  };
  if (!confirm) {
    const priced = await api.POST('/purchases/mine/date-change/preview', { params: { header: headers }, body });
    if (!priced.data) return failed(priced.response.status, priced.error);
    return data<PurchasePageState>({
      step: 'purchase',
      purchase,
      dateChange: { input, errors: {}, preview: priced.data },
    });
  }
  // The API makes the gateway's return URL from the store's public address, as the payment step does: this page's
  // own host (it believes forwarded headers only from a TRUST_PROXY peer; in process, this page's peer).
  const done = await api.POST('/purchases/mine/date-change', {
    params: { header: headers },
    body,
    headers: pageHostHeaders(request),
  });
  if (!done.data) return failed(done.response.status, done.error);
  // A document navigation: the gateway's page is not part of the storefront's client-side router.
  if (done.data.redirectUrl) throw redirectDocument(done.data.redirectUrl);
  const after = await api.GET('/purchases/mine', { params: { header: headers } });
  const what = changedText(purchase, { ...done.data, countryId: done.data.destinationCountry?.id ?? null });
  return data<PurchasePageState>({
    step: 'purchase',
    purchase: after.data?.role === 'buyer' ? after.data : purchase,
    notice: done.data.action === 'refund' ? refundNotice(what) : sameNotice(what),
  });
}

const files = {
  'comprobante.pdf': '/purchases/mine/comprobante.pdf',
  'certificado.pdf': '/purchases/mine/certificado.pdf',
} as const;

/** GET /mi-compra/{comprobante|certificado|certificado-{number}}.pdf: a document of the open purchase, or back to «Mi compra». */
export async function purchaseDocument(context: LoadContext, request: Request, name: string | undefined) {
  const path = name && name in files ? files[name as keyof typeof files] : undefined;
  // certificado-{number}.pdf: one traveller's certificate of the open purchase.
  const certificate = /^certificado-([A-Za-z0-9-]{1,40})\.pdf$/.exec(name ?? '')?.[1];
  // documento-tributario-{id}.pdf: a boleta, factura or nota de crédito of the open purchase (the buyer's only).
  const taxDocument = /^documento-tributario-([1-9]\d{0,9})\.pdf$/.exec(name ?? '')?.[1];
  if (!path && !certificate && !taxDocument) throw new Response('No encontrado', { status: 404 });
  const token = await accessToken(request);
  if (!token) throw redirect('/mi-compra');
  const api = serverApi(context);
  const answer = path
    ? await api.GET(path, { params: { header: bearer(token) }, parseAs: 'arrayBuffer' })
    : taxDocument
      ? await api.GET('/purchases/mine/documentos-tributarios/{document}', {
          params: { header: bearer(token), path: { document: `${taxDocument}.pdf` } },
          parseAs: 'arrayBuffer',
        })
      : await api.GET('/purchases/mine/certificados/{certificate}', {
          params: { header: bearer(token), path: { certificate: certificate ?? '' } },
          parseAs: 'arrayBuffer',
        });
  // Not of this access (404), or the buyer's only (403, a traveller's access): back to her «Mi compra».
  if (answer.response.status === 404 || answer.response.status === 403) throw redirect('/mi-compra');
  if (!answer.response.ok || !answer.data) throw new Response(unavailableMessage, { status: 503 });
  return new Response(answer.data as ArrayBuffer, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
