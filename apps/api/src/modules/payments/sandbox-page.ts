import { formatClp } from '@travesia/domain/money';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Every page of the test gateway says so, where no payer can miss it: banner and title. */
export const testMark = 'PAGO DE PRUEBA — SIN VALOR';

const page = (title: string, body: string) => `<!doctype html>
<html lang="es-CL"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${testMark} · ${escapeHtml(title)}</title>
<style>
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef3f5;color:#1e293b}
  main{max-width:420px;margin:32px auto;background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(0,0,0,.12);padding:24px}
  h1{font-size:1.3rem;margin:0 0 4px;color:#0b5563}
  .test-banner{background:#7f1d1d;color:#fff;text-align:center;font-weight:800;font-size:1.15rem;letter-spacing:.04em;padding:14px 16px;border-bottom:6px dashed #fde68a}
  .test-note{margin:0 0 16px;background:#fef3c7;color:#78350f;border:2px solid #b45309;border-radius:10px;padding:10px 12px;font-weight:600}
  .amount{font-size:2rem;font-weight:800;margin:16px 0 4px} label{display:block;font-weight:600;margin:16px 0 6px}
  select,button{width:100%;font-size:1rem;border-radius:10px;padding:12px} select{border:1px solid #cbd5e1;background:#fff}
  button{border:0;font-weight:700;margin-top:10px;cursor:pointer} .approve{background:#0b5563;color:#fff}
  .decline{background:#fff;border:2px solid #b91c1c;color:#b91c1c} .abandon{background:#f1f5f9;color:#334155}
  p.small{font-size:.85rem;color:#64748b}
  /* The store's keyboard focus ring (coral 700, 4.5:1 on white): the browser's own is 1 px and faint. */
  :focus-visible{outline:2px solid #cd4a2f;outline-offset:2px}
</style></head><body><header class="test-banner">${testMark}</header><main>${body}</main></body></html>`;

/** The sandbox gateway's payment page: approve in 1–6 interest-free instalments, decline, or abandon. */
export function sandboxPaymentPage(input: { token: string; buyOrder: string; amountClp: number }) {
  const action = `/api/payments/sandbox/${encodeURIComponent(input.token)}`;
  const options = [1, 2, 3, 4, 5, 6]
    .map((n) => `<option value="${n}">${n === 1 ? '1 cuota (sin cuotas)' : `${n} cuotas sin interés`}</option>`)
    .join('');
  return page(
    'Pasarela de pago de prueba',
    `<p class="test-note">Pasarela de prueba: solo simula un pago, no se cobra dinero real.</p>
<h1>Pago de tu asistencia en viaje</h1>
<p class="small">Orden de compra ${escapeHtml(input.buyOrder)}</p>
<p class="amount">${escapeHtml(formatClp(input.amountClp))}</p>
<p class="small">Hasta 6 cuotas sin interés. Ningún cargo real: esta pasarela simula la respuesta del banco.</p>
<form method="post" action="${action}">
  <label for="instalments">Cuotas</label>
  <select id="instalments" name="instalments">${options}</select>
  <button class="approve" name="decision" value="approve" type="submit">Aprobar pago</button>
  <button class="decline" name="decision" value="decline" type="submit">Rechazar pago</button>
  <button class="abandon" name="decision" value="abandon" type="submit">Abandonar y volver a la tienda</button>
</form>`,
  );
}

export function sandboxDonePage(message: string) {
  return page('Pasarela de pago de prueba', `<h1>${escapeHtml(message)}</h1><p><a href="/">Volver a la tienda</a></p>`);
}
