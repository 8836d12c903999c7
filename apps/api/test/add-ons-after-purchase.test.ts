import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sales, taxDocuments } from '#app/db/schema.ts';
import { openFacturaBody } from '#app/integrations/tax-documents/openfactura.ts';
import { saleLedger } from '#app/modules/payments/ledger.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { documentLines, splitTotal } from '#app/modules/tax-documents/amounts.ts';
import { sampleAddOns } from './support/add-ons.ts';
import { clpText, drainJobsAfterAll, paidSale, settleSaleRefunds, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import { useFakeSmtp } from './support/smtp.ts';
import { tripDates } from './support/trips.ts';

/*
 * Add-ons after the purchase (issue 27 §1): everything the buyer and the travellers get afterwards reads the add-ons
 * from the paid snapshot (support/checkout.ts sellAddOns writes it as the purchase step does) — each traveller's
 * certificate, «Mi compra» (the buyer's with prices and the split, a traveller's with her own only), the receipt, the
 * purchase e-mail, the tax document's lines, the withdrawal and the date change. A sale without add-ons is unchanged.
 */

const env: NodeJS.ProcessEnv = { TAX_DOCUMENTS_PROVIDER: 'local' };
useTemporaryDataDir(env);
const smtp = useFakeSmtp(env);

const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

type AddOnView = {
  code: string;
  name: string;
  benefits: { label: string; value: string }[];
  amountClp?: number;
  amountUsd?: number;
};
type BuyerView = {
  role: 'buyer';
  amountClp: number;
  priceBreakdown: { planClp: number; addOnsClp: number; totalClp: number; planUsd: number; addOnsUsd: number };
  ledger: { paidClp: number };
  travellers: { name: string; certificate: string; addOns: AddOnView[] }[];
};

/** Camila (sports) and Rosa (electronics) bought add-ons; Diego none. */
const addOnsOfSale = { 0: [sampleAddOns.sports], 2: [sampleAddOns.electronics] };

async function openBuyer(ctx: TestContext, sale: { idVenta: number }) {
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.idVenta);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  return opened.json<{ token: string }>().token;
}

/** Opens «Mi compra» as Rosa (RUT 7.654.321-6), a traveller and not the buyer, with the code e-mailed to her. */
async function openAsRosa(ctx: TestContext, sale: { idVenta: number }) {
  const rosa = { number: String(sale.idVenta), documentType: 'rut', document: '7.654.321-6' };
  const asked = await call(ctx.app, { method: 'POST', url: '/api/purchases/access', payload: rosa });
  expect(asked.status, asked.text).toBe(202);
  await ctx.app.runJobs();
  const mail = smtp
    .mailsTo('rosa@example.cl')
    .filter((m) => m.parsed.subject?.includes('código'))
    .at(-1);
  const code = /\b(\d{6})\b/.exec(mail?.parsed.text ?? '')?.[1];
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/code', payload: { ...rosa, code } });
  expect(opened.status, opened.text).toBe(200);
  return opened.json<{ token: string }>().token;
}

const mine = async (ctx: TestContext, token: string) => {
  const answer = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: withToken(token) });
  expect(answer.status, answer.text).toBe(200);
  return answer;
};

const pdfOf = async (ctx: TestContext, token: string, path: string) => {
  const answer = await ctx.app.inject({ method: 'GET', url: `/api/purchases/mine${path}`, headers: withToken(token) });
  expect(answer.statusCode, answer.body).toBe(200);
  return pdfText(answer.rawPayload);
};

const docsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(taxDocuments).where(eq(taxDocuments.saleId, saleId)).orderBy(asc(taxDocuments.id));

/** The text of a stored document's PDF (the local adapter's). */
async function storedPdfText(ctx: TestContext, key: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.app.documentStore.get(key)) chunks.push(Buffer.from(chunk as Uint8Array));
  return pdfText(Buffer.concat(chunks));
}

/** `$12.345` → 12345. */
const pesos = (text: string) => Number(text.replace(/[$.]/g, ''));

describe('a tax document’s detail lines', () => {
  it('the plan line takes the rounding remainder: every amount adds up to the document, afecto or exento', () => {
    for (const taxBp of [1900, null]) {
      const document = splitTotal(100_001, taxBp);
      const lines = documentLines(document, 'Plan', [
        { name: 'Deportes', totalClp: 33_333 },
        { name: 'Electrónicos', totalClp: 12_347 },
      ]);
      expect(lines.map((line) => line.name)).toStrictEqual(['Plan', 'Deportes', 'Electrónicos']);
      for (const key of ['netClp', 'ivaClp', 'exemptClp', 'totalClp'] as const) {
        expect(lines.reduce((sum, line) => sum + line[key], 0)).toBe(document[key]);
      }
      for (const line of lines) {
        expect(line.netClp + line.ivaClp + line.exemptClp).toBe(line.totalClp);
        if (taxBp === null) expect(line.exemptClp).toBe(line.totalClp);
        else expect(line.exemptClp).toBe(0);
      }
      expect(lines[0]?.totalClp).toBe(100_001 - 33_333 - 12_347);
    }
  });

  it('OpenFactura gets one Detalle line each, adding up to the totals: gross on a boleta, net on a factura, exempt', () => {
    const issuer = { rut: '76123456-7', name: 'Travesía', giro: 'Asistencia', address: 'Av. 1', commune: 'Santiago' };
    for (const [type, taxBp] of [
      [39, 1900],
      [33, 1900],
      [41, null],
      [34, null],
    ] as const) {
      const amounts = splitTotal(99_615, taxBp);
      const lines = documentLines(amounts, 'Plan', [
        { name: 'Deportes', totalClp: 17_074 },
        { name: 'Electrónicos', totalClp: 9_011 },
      ]);
      const body = openFacturaBody(
        {
          key: 'k',
          type,
          date: '2026-11-29',
          receiver: { rut: '66666666-6', name: 'X' },
          item: 'i',
          lines,
          ...amounts,
        },
        issuer,
      );
      const detail = body.dte.Detalle;
      expect(detail.map((line) => line.NroLinDet)).toStrictEqual([1, 2, 3]);
      const sum = detail.reduce((total, line) => total + line.MontoItem, 0);
      const { Totales } = body.dte.Encabezado;
      expect(sum).toBe(taxBp === null ? Totales.MntExe : type === 39 ? Totales.MntTotal : Totales.MntNeto);
      expect(detail.every((line) => 'IndExe' in line === (taxBp === null))).toBe(true);
    }
  });

  it('add-ons that do not fit in the total leave the one line of the whole document', () => {
    const document = splitTotal(10_000, 1900);
    expect(documentLines(document, 'Plan', [{ name: 'X', totalClp: 10_000 }])).toStrictEqual([
      { name: 'Plan', ...document },
    ]);
  });
});

describeOnEachDatabase(
  'add-ons after the purchase',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('each traveller’s certificate prints her own add-ons with their benefits; nobody else’s, and none without', async () => {
      const sale = await paidSale(ctx, 1, undefined, { addOns: addOnsOfSale });
      const token = await openBuyer(ctx, sale);
      const view = (await mine(ctx, token)).json<BuyerView>();
      const [camila, diego, rosa] = view.travellers;
      const camilaPdf = await pdfOf(ctx, token, `/certificados/${camila?.certificate}`);
      expect(camilaPdf).toContain('Adicionales contratados');
      expect(camilaPdf).toContain('Deportes y aventura');
      expect(camilaPdf).toContain('Rescate en monta');
      expect(camilaPdf).toContain('USD 5.000');
      expect(camilaPdf).not.toContain('Electr');
      const rosaPdf = await pdfOf(ctx, token, `/certificados/${rosa?.certificate}`);
      expect(rosaPdf).toContain('Adicionales contratados');
      expect(rosaPdf).toContain('Robo de equipos electr');
      expect(rosaPdf).toContain('USD 800');
      expect(rosaPdf).not.toContain('Deportes y aventura');
      const diegoPdf = await pdfOf(ctx, token, `/certificados/${diego?.certificate}`);
      expect(diegoPdf).not.toContain('Adicionales contratados');
      expect(diegoPdf).not.toContain('Deportes y aventura');
      // The whole sale's PDF names whose each add-on is.
      const whole = await pdfOf(ctx, token, '/certificado.pdf');
      expect(whole).toContain('Deportes y aventura · Camila Rojas');
      expect(whole).toContain('Electrónicos y equipaje · Rosa Pérez');
    });

    it('«Mi compra»: the buyer sees each traveller’s add-ons with their price and the split plan + add-ons = total; a traveller only hers, without amounts', async () => {
      const sale = await paidSale(ctx, 1, undefined, { addOns: addOnsOfSale });
      const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, sale.idVenta));
      const bought = row?.purchase;
      const sportsClp = bought?.travellers[0]?.addOns?.[0]?.totalClp ?? 0;
      const electronicsClp = bought?.travellers[2]?.addOns?.[0]?.totalClp ?? 0;
      expect(sportsClp).toBeGreaterThan(0);
      const token = await openBuyer(ctx, sale);
      const view = (await mine(ctx, token)).json<BuyerView>();
      expect(view.priceBreakdown).toMatchObject({
        addOnsClp: sportsClp + electronicsClp,
        totalClp: view.amountClp,
        planUsd: (bought?.price.plan?.totalUsdCents ?? 0) / 100,
        addOnsUsd: (18_00 + 9_50) / 100,
      });
      expect(view.priceBreakdown.planClp + view.priceBreakdown.addOnsClp).toBe(view.amountClp);
      expect(view.priceBreakdown.planClp).toBe(bought?.price.plan?.totalClp);
      // What was charged is the plan and the add-ons.
      expect(view.ledger.paidClp).toBe(view.amountClp);
      expect(sale.result.amountClp).toBe(view.amountClp);
      expect(view.travellers.map((t) => t.addOns.map((a) => [a.code, a.amountClp]))).toStrictEqual([
        [['deportes', sportsClp]],
        [],
        [['electronicos', electronicsClp]],
      ]);
      expect(view.travellers[0]?.addOns[0]?.benefits).toStrictEqual(sampleAddOns.sports.benefits);

      const rosaToken = await openAsRosa(ctx, sale);
      const own = await mine(ctx, rosaToken);
      const travellerView = own.json<{ role: string; traveller: { addOns: AddOnView[] } }>();
      expect(travellerView.role).toBe('traveller');
      expect(travellerView.traveller.addOns).toStrictEqual([
        {
          code: 'electronicos',
          name: 'Electrónicos y equipaje',
          description: sampleAddOns.electronics.description,
          benefits: sampleAddOns.electronics.benefits,
          boughtAfterPurchase: false,
        },
      ]);
      for (const hidden of ['Deportes', 'amount', 'price', String(electronicsClp), 'Camila']) {
        expect(own.text).not.toContain(hidden);
      }
    });

    it('the receipt, the purchase e-mail and the boleta list the plan and the add-ons, adding up to what was charged', async () => {
      const sale = await paidSale(ctx, 1, undefined, { addOns: addOnsOfSale });
      await ctx.app.runJobs();
      const token = await openBuyer(ctx, sale);
      const view = (await mine(ctx, token)).json<BuyerView>();
      const { planClp, totalClp } = view.priceBreakdown;
      const [sports, electronics] = [view.travellers[0]?.addOns[0], view.travellers[2]?.addOns[0]];

      const receipt = await pdfOf(ctx, token, '/comprobante.pdf');
      expect(receipt).toContain('Desglose del precio');
      expect(receipt).toContain('Camila Rojas · Deportes y aventura');
      expect(receipt).toContain('Rosa Pérez · Electrónicos y equipaje');
      for (const amount of [planClp, sports?.amountClp ?? 0, electronics?.amountClp ?? 0, totalClp]) {
        expect(receipt).toContain(clpText(amount));
      }

      const [mail] = smtp.mailsOfSale(sale.idVenta).filter((m) => m.to.includes('camila@example.cl'));
      const text = mail?.parsed.text ?? '';
      expect(text).toContain(`: ${clpText(planClp)}`);
      expect(text).toContain(`Adicional Deportes y aventura · Camila Rojas: ${clpText(sports?.amountClp ?? 0)}`);
      expect(text).toContain(`Adicional Electrónicos y equipaje · Rosa Pérez: ${clpText(electronics?.amountClp ?? 0)}`);
      expect(text).toContain(`Total: ${clpText(totalClp)}`);
      expect(text).toContain(`Total pagado: ${clpText(totalClp)}`);
      expect(mail?.parsed.html || '').toContain('Adicional Deportes y aventura');

      const [document] = await docsOf(ctx, sale.idVenta);
      expect(document).toMatchObject({ state: 'emitido', totalClp });
      const boleta = await storedPdfText(ctx, document?.pdfKey ?? '');
      const lines = [...boleta.matchAll(/^(.+): (\$[\d.]+)$/gm)].filter(
        ([, name]) => !/^(Total|Exento|Neto)/.test(name ?? ''),
      );
      expect(lines.map(([, name]) => name)).toStrictEqual([
        expect.stringContaining('Asistencia en viaje · plan'),
        'Adicional Deportes y aventura (1 pasajero)',
        'Adicional Electrónicos y equipaje (1 pasajero)',
      ]);
      expect(lines.reduce((sum, [, , amount]) => sum + pesos(amount ?? ''), 0)).toBe(totalClp);
      expect(pesos(lines[1]?.[2] ?? '')).toBe(sports?.amountClp);
    });

    it('a withdrawal gives back everything paid, the add-ons included, and says so: plan + adicionales = total devuelto', async () => {
      const sale = await paidSale(ctx, 1, undefined, { addOns: addOnsOfSale });
      await ctx.app.runJobs();
      const token = await openBuyer(ctx, sale);
      const view = (await mine(ctx, token)).json<BuyerView>();
      const withdrawn = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/withdrawal',
        headers: withToken(token),
      });
      expect(withdrawn.status, withdrawn.text).toBe(200);
      await settleSaleRefunds(ctx, sale.idVenta);
      const ledger = await saleLedger(ctx.database.db, sale.idVenta);
      expect(ledger.refundedClp).toBe(view.amountClp);
      expect(ledger.refundedClp).toBe(view.priceBreakdown.planClp + view.priceBreakdown.addOnsClp);
      expect(ledger.netClp).toBe(0);
      await ctx.app.runJobs();
      const { planClp, addOnsClp, totalClp } = view.priceBreakdown;
      const said = `plan ${clpText(planClp)} + adicionales ${clpText(addOnsClp)} = total devuelto ${clpText(totalClp)}`;
      const mails = smtp.mailsAbout(`compra N° ${sale.idVenta} anulada`);
      expect(mails.length).toBeGreaterThanOrEqual(2);
      for (const mail of mails) expect(mail.parsed.text).toContain(said);
      // The credit note cancels the whole boleta.
      const docs = await docsOf(ctx, sale.idVenta);
      const note = docs.find((d) => d.type === 61);
      expect(note?.totalClp).toBe(docs.find((d) => d.type !== 61)?.totalClp);
    });

    it('a date change reprices the plan and each add-on with the rule it was sold under, for the new days', async () => {
      const sale = await paidSale(ctx, 1, undefined, { addOns: addOnsOfSale });
      const token = await openBuyer(ctx, sale);
      const before = (await mine(ctx, token)).json<BuyerView>();
      const shorter = tripDates(5);
      const confirmed = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/date-change',
        headers: withToken(token),
        payload: shorter,
      });
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.json()).toMatchObject({ action: 'refund', status: 'applied' });
      const after = (await mine(ctx, token)).json<BuyerView>();
      // The sample add-ons are priced per day: 5 days instead of 10 cost half, for the same travellers.
      const usdOf = (view: BuyerView) => view.travellers.map((t) => t.addOns.map((a) => a.amountUsd));
      expect(usdOf(after)).toStrictEqual(usdOf(before).map((lines) => lines.map((usd) => (usd ?? 0) / 2)));
      expect(after.travellers.map((t) => t.addOns.map((a) => a.name))).toStrictEqual(
        before.travellers.map((t) => t.addOns.map((a) => a.name)),
      );
      expect(after.priceBreakdown.addOnsClp).toBeLessThan(before.priceBreakdown.addOnsClp);
      expect(after.priceBreakdown.planClp).toBeLessThan(before.priceBreakdown.planClp);
      expect(after.amountClp).toBe(after.priceBreakdown.planClp + after.priceBreakdown.addOnsClp);
      const { differenceClp } = confirmed.json<{ differenceClp: number }>();
      expect(differenceClp).toBe(after.amountClp - before.amountClp);
      const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, sale.idVenta));
      expect(row?.amountClp).toBe(after.amountClp);
      expect(row?.purchase?.price.addOns?.totalClp).toBe(after.priceBreakdown.addOnsClp);
      const certificate = await pdfOf(ctx, token, `/certificados/${after.travellers[0]?.certificate}`);
      expect(certificate).toContain('Deportes y aventura');
    });

    it('a sale without add-ons is as before: no add-on anywhere, the plan is the total', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const token = await openBuyer(ctx, sale);
      const view = (await mine(ctx, token)).json<BuyerView>();
      expect(view.priceBreakdown).toMatchObject({ planClp: view.amountClp, addOnsClp: 0, totalClp: view.amountClp });
      expect(view.travellers.every((t) => t.addOns.length === 0)).toBe(true);
      const certificate = await pdfOf(ctx, token, `/certificados/${view.travellers[0]?.certificate}`);
      expect(certificate).not.toContain('Adicionales contratados');
      const receipt = await pdfOf(ctx, token, '/comprobante.pdf');
      expect(receipt).not.toContain('Desglose del precio');
      const [mail] = smtp.mailsOfSale(sale.idVenta).filter((m) => m.to.includes('camila@example.cl'));
      expect(mail?.parsed.text).not.toContain('Adicional');
      expect(mail?.parsed.text).toContain(`Total pagado: ${clpText(view.amountClp)}`);
      const [document] = await docsOf(ctx, sale.idVenta);
      const boleta = await storedPdfText(ctx, document?.pdfKey ?? '');
      expect(boleta).not.toContain('Adicional');
      expect(boleta).not.toContain(' · plan ');
    });
  },
  env,
);
