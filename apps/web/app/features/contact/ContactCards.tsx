import { Link } from 'react-router';
import { ContactRows, Emails, Phone } from './ContactLinks.tsx';
import type { Contact } from './contact.server.ts';

/** A middle entry (spec §2): a small card with its label, phones and e-mail. */
export function SmallContactCard({ contact }: { contact: Contact }) {
  return (
    <article
      className="flex flex-col gap-2 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5"
      data-testid="contact-small"
    >
      <h3 className="text-lg font-bold text-brand-700">{contact.category}</h3>
      <p className="text-sm text-slate-600">{contact.label}</p>
      <ContactRows items={contact.phones} className="space-y-0.5">
        {(phone) => <Phone phone={phone} />}
      </ContactRows>
      <Emails contact={contact} />
    </article>
  );
}

/** The last entry (spec §2): a card that leads to the contact form. */
export function FormContactCard({ contact }: { contact: Contact }) {
  return (
    <article
      className="flex flex-col items-start gap-3 rounded-2xl bg-brand-50 p-6 ring-1 ring-brand-100 sm:flex-row sm:items-center sm:justify-between sm:p-8"
      data-testid="contact-form-card"
    >
      <div>
        <h2 className="text-xl font-bold text-brand-700">{contact.category}</h2>
        <p className="text-slate-700">{contact.label}</p>
      </div>
      <Link
        to="/contacto"
        className="shrink-0 rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800"
      >
        {contact.url?.label ?? 'Ir al formulario'}
      </Link>
    </article>
  );
}
