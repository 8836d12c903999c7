import { Link } from 'react-router';
import { PurchaseMockup } from '#app/features/content/PurchaseMockup.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => [
  ...pageTitle('Contratación'),
  { name: 'description', content: 'Vista de ejemplo del paso 1 de 3 de la compra de una asistencia en viaje.' },
  { name: 'robots', content: 'noindex' },
];

export default function PurchaseMockupPage() {
  return (
    <section className="bg-slate-50">
      <div className="page-width py-8 sm:py-10">
        <h1 className="mb-2 text-2xl font-bold text-brand-700 sm:text-3xl">Contratación</h1>
        <p className="mb-6 max-w-3xl text-slate-600">
          Así se ve el primer paso de la compra: los datos de hasta 3 pasajeros y un contacto de emergencia. Esta página
          es una vista de ejemplo y no guarda lo que escribas; para contratar,{' '}
          <Link to="/cotizador" className="font-semibold text-brand-700 underline underline-offset-4">
            cotiza tu viaje
          </Link>
          .
        </p>
        <PurchaseMockup />
      </div>
    </section>
  );
}
