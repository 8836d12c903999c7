import { ContactForm } from '#app/features/contact/ContactForm.tsx';
import { loadContactForm, submitContactForm } from '#app/features/contact/contact.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/contacto';

export const meta = () => [
  ...pageTitle('Completa tu solicitud'),
  {
    name: 'description',
    content: 'Escríbenos tu consulta sobre planes, compras, certificados o reembolsos y te responderemos por correo.',
  },
];

export const loader = ({ context }: Route.LoaderArgs) => loadContactForm(context);

export const action = ({ context, request }: Route.ActionArgs) => submitContactForm(context, request);

export default function ContactFormPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="page-width py-10 *:max-w-3xl sm:py-14">
      <h1 className="mb-2 text-3xl font-bold text-brand-700 sm:text-4xl">Completa tu solicitud</h1>
      <p className="mb-8 text-lg text-slate-600">
        Cuéntanos en qué te podemos ayudar y te responderemos al correo que nos indiques.
      </p>
      <ContactForm
        subjects={loaderData.subjects}
        reCaptchaSiteKey={loaderData.reCaptchaSiteKey}
        actionResult={actionData}
      />
    </section>
  );
}
