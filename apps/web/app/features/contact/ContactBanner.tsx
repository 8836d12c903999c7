import { contactPhoneHref } from '@travesia/domain/links';
import type { Contact, ContactInfo } from './contact.server.ts';

/** The banner (spec §2): the emergency e-mail, and the phones for other queries. */
export function ContactBanner({ emergency, infos }: { emergency: Contact | undefined; infos: ContactInfo[] }) {
  const others = infos.filter((info) => !info.isEmergency);
  const email = emergency?.emails[0]?.email;
  if (!email && others.length === 0) return null;
  return (
    <aside
      aria-labelledby="contact-banner"
      className="rounded-2xl bg-brand-700 p-6 text-white sm:p-8"
      data-testid="contact-banner"
    >
      <h2 id="contact-banner" className="text-xl font-bold">
        ¿Otras consultas?
      </h2>
      {email ? (
        <p className="mt-2">
          Escríbenos a{' '}
          <a href={`mailto:${email}`} className="font-bold break-all underline underline-offset-2">
            {email}
          </a>
        </p>
      ) : null}
      {others.length > 0 ? (
        <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
          {others.map((info) => {
            const href = contactPhoneHref(info.phone);
            return (
              <li key={`${info.label}-${info.phone}`}>
                <span className="block text-sm text-brand-100">{info.label}</span>
                {href ? (
                  <a href={href} className="font-bold underline underline-offset-2">
                    {info.phone}
                  </a>
                ) : (
                  <span className="font-bold">{info.phone}</span>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
    </aside>
  );
}
