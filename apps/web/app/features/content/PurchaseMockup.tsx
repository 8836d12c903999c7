import { formatClp, formatUsd } from '@travesia/domain/money';
import { CheckboxField, ContinueButton, FormSection, SelectField, TextField } from '#app/components/fields.tsx';

/** The fixed sample of the mock-up's purchase-detail card (spec §2 Contratacion: no behaviour, sample data). */
export const sample = {
  plan: 'Travesía Plus',
  destination: 'Europa',
  departure: '10-01-2027',
  return: '24-01-2027',
  days: 15,
  passengers: 3,
  exchangeRate: 948.53,
  lines: [
    { label: '2 adultos (18 a 64 años)', usd: 2 * 89 },
    { label: '1 menor (0 a 17 años)', usd: 59 },
  ],
  discountUsd: 35.55,
};

const subtotalUsd = sample.lines.reduce((sum, line) => sum + line.usd, 0);
const totalUsd = Math.round((subtotalUsd - sample.discountUsd) * 100) / 100;

function Steps() {
  const steps = ['Pasajeros', 'Facturación', 'Pago'];
  return (
    <nav aria-label="Pasos de la compra">
      <ol className="flex items-start">
        {steps.map((label, index) => (
          <li
            key={label}
            aria-current={index === 0 ? 'step' : undefined}
            className="relative flex flex-1 flex-col items-center gap-1.5 text-center"
          >
            {index > 0 ? (
              <span aria-hidden="true" className="absolute top-[1.05rem] right-1/2 h-0.5 w-full bg-slate-200" />
            ) : null}
            <span
              aria-hidden="true"
              className={`relative z-10 flex h-9 w-9 items-center justify-center rounded-full border-2 text-sm font-bold ${
                index === 0 ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 bg-white text-slate-500'
              }`}
            >
              {index + 1}
            </span>
            <span className={`text-xs font-semibold sm:text-sm ${index === 0 ? 'text-brand-700' : 'text-slate-500'}`}>
              <span className="sr-only">Paso {index + 1} de 3: </span>
              {label}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** One traveller's fields. Unnamed on purpose: the mock-up sends nothing anywhere. */
function TravellerFields({ number }: { number: number }) {
  return (
    <FormSection title={`Pasajero ${number}`} description="Datos como aparecen en el documento de viaje.">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Nombre" autoComplete="off" />
        <TextField label="Apellido" autoComplete="off" />
        <SelectField label="Género" defaultValue="">
          <option value="" disabled>
            Selecciona
          </option>
          <option>Femenino</option>
          <option>Masculino</option>
        </SelectField>
        <TextField label="Fecha de nacimiento" placeholder="dd-mm-aaaa" inputMode="numeric" autoComplete="off" />
        <SelectField label="Nacionalidad" defaultValue="Chile">
          <option>Chile</option>
          <option>Otro</option>
        </SelectField>
        <SelectField label="Tipo de documento" defaultValue="RUT">
          <option>RUT</option>
          <option>DNI</option>
        </SelectField>
        <TextField label="Número de documento" placeholder="12.345.678-5" autoComplete="off" />
        <TextField label="Email" type="email" autoComplete="off" />
        <TextField label="Teléfono" type="tel" placeholder="+56 9 1234 5678" autoComplete="off" />
      </div>
    </FormSection>
  );
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? 'text-lg font-bold text-slate-900' : 'text-slate-700'}`}>
      <dt>{label}</dt>
      <dd className="text-right">{value}</dd>
    </div>
  );
}

/**
 * Spec §2 «Contratacion»: the static mock-up of purchase step 1 of 3 — traveller data for up to 3 passengers, the
 * emergency contact, terms and promotions checkboxes, «Continuar», and a purchase-detail card with a fixed sample.
 * It has no behaviour: its fields have no names, and «Continuar» opens the real quoter with nothing from them.
 */
export function PurchaseMockup() {
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem] lg:items-start">
      <form action="/cotizador" method="get" className="flex flex-col gap-5">
        <Steps />
        {[1, 2, 3].map((number) => (
          <TravellerFields key={number} number={number} />
        ))}
        <FormSection title="Contacto de emergencia" description="A quién avisamos si algo te pasa durante el viaje.">
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField label="Nombre" autoComplete="off" />
            <TextField label="Apellido" autoComplete="off" />
            <TextField label="Teléfono" type="tel" autoComplete="off" />
          </div>
        </FormSection>
        <div className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6">
          <CheckboxField label="Acepto los términos y condiciones y las condiciones generales del plan" />
          <CheckboxField label="Quiero recibir promociones y novedades de Travesía" />
        </div>
        <ContinueButton submitting={false} label="Continuar" className="self-end" />
      </form>

      <aside aria-labelledby="detalle-compra" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5">
        <h2 id="detalle-compra" className="mb-1 text-lg font-bold text-slate-900">
          Detalle de compra
        </h2>
        <p className="mb-4 text-sm text-slate-600">Datos de ejemplo.</p>
        <dl className="flex flex-col gap-2">
          <Row label="Plan" value={sample.plan} />
          <Row label="Destino" value={sample.destination} />
          <Row label="Salida" value={sample.departure} />
          <Row label="Regreso" value={sample.return} />
          <Row label="Duración" value={`${sample.days} días`} />
          <Row label="Pasajeros" value={String(sample.passengers)} />
        </dl>
        <hr className="my-4 border-slate-200" />
        <dl className="flex flex-col gap-2">
          {sample.lines.map((line) => (
            <Row key={line.label} label={line.label} value={formatUsd(line.usd)} />
          ))}
          <Row label="Descuento" value={`- ${formatUsd(sample.discountUsd)}`} />
          <Row label="Total" value={formatUsd(totalUsd)} strong />
          <Row label="Total en pesos" value={formatClp(Math.round(totalUsd * sample.exchangeRate))} />
        </dl>
        <p className="mt-4 text-sm text-slate-600">Hasta 6 cuotas sin interés.</p>
      </aside>
    </div>
  );
}
