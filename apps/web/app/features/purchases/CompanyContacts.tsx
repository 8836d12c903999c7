import { phoneHref } from '@travesia/domain/links';
import { Link } from 'react-router';
import { useWebsite } from '#app/lib/website.ts';

/** How to reach the company (the website parameters' contact directory and the contact form). */
export function CompanyContacts() {
  const { website } = useWebsite();
  const contacts = website.contacts.filter((contact) => !contact.isEmergency);
  return (
    <div className="mt-3 text-sm text-slate-700">
      <p>Si tienes dudas sobre tu compra, contáctanos:</p>
      <ul className="mt-2 grid gap-1">
        {contacts.map((contact) => (
          <li key={`${contact.label}-${contact.phone}`}>
            {contact.label}:{' '}
            <a className="font-semibold text-brand-700 underline underline-offset-2" href={phoneHref(contact.phone)}>
              {contact.phone}
            </a>
          </li>
        ))}
        <li>
          <Link to="/contacto" className="font-semibold text-brand-700 underline underline-offset-2">
            Escríbenos desde el formulario de contacto
          </Link>
        </li>
      </ul>
    </div>
  );
}
