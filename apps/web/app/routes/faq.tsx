import type { ShouldRevalidateFunctionArgs } from 'react-router';
import { PreviewNotice } from '#app/components/PreviewNotice.tsx';
import { FaqAccordion } from '#app/features/content/FaqAccordion.tsx';
import { loadFaq } from '#app/features/content/faq.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/faq';

export const meta = () => [
  ...pageTitle('Preguntas frecuentes'),
  {
    name: 'description',
    content:
      'Respuestas sobre la compra, las coberturas, qué hacer durante el viaje, los reembolsos y los certificados de tu asistencia en viaje.',
  },
];

export function loader({ context, request }: Route.LoaderArgs) {
  return loadFaq(context, request);
}

// The search filters in the browser; a new ?q= needs no new answer from the server.
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

export default function Faq({ loaderData }: Route.ComponentProps) {
  return (
    <>
      {loaderData.preview ? <PreviewNotice state={loaderData.preview} /> : null}
      <section className="page-width py-10 *:max-w-4xl sm:py-14">
        <h1 className="mb-3 text-3xl font-bold text-brand-700 sm:text-4xl">Preguntas frecuentes</h1>
        <p className="mb-8 text-lg text-slate-600">
          Todo lo que necesitas saber antes, durante y después de tu viaje. ¿No encuentras tu respuesta? Escríbenos
          desde la página de contacto.
        </p>
        <FaqAccordion {...loaderData} />
      </section>
    </>
  );
}
