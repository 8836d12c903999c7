import { contactPhoneHref, isPlainLink, whatsappHref } from '@travesia/domain/links';
import { Link } from 'react-router';
import { SmartLink } from '#app/components/SmartLink.tsx';
import type { Contact, ContactInfo } from './contact.server.ts';

/** A phone as a `tel:` link (spec §9 cleaning, prefix 56, up to 14 digits), or as text when it cannot be one. */
function Phone({ phone }: { phone: string }) {
  const href = contactPhoneHref(phone);
  return href ? (
    <a href={href} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
      {phone}
    </a>
  ) : (
    <span className="font-semibold text-slate-800">{phone}</span>
  );
}

function WhatsappLink({ phone }: { phone: string }) {
  return (
    <a
      href={whatsappHref(phone)}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1.5 font-semibold text-green-800 underline-offset-2 hover:underline"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor">
        <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2Zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.3.8 3.2.6a2.7 2.7 0 0 0 1.8-1.2 2.2 2.2 0 0 0 .1-1.3c0-.1-.2-.2-.4-.3Z" />
      </svg>
      <span>
        <span className="sr-only">WhatsApp </span>
        {phone}
      </span>
    </a>
  );
}

function Emails({ contact }: { contact: Contact }) {
  if (contact.emails.length === 0) return null;
  return (
    <ul className="space-y-1">
      {contact.emails.map(({ email }) => (
        <li key={email}>
          <a href={`mailto:${email}`} className="break-all text-brand-700 underline underline-offset-2">
            {email}
          </a>
        </li>
      ))}
    </ul>
  );
}

const whatsappsOf = (contact: Contact) =>
  [contact.whatsapp.phone1, contact.whatsapp.phone2].filter((phone): phone is string => Boolean(phone)).slice(0, 2);

/** The first two entries (spec §2): category heading; the emergency one lists its lines on WhatsApp with its label. */
function LargeCard({ contact }: { contact: Contact }) {
  const whatsapps = whatsappsOf(contact);
  return (
    <article
      className={`flex flex-col gap-4 rounded-2xl p-6 shadow-sm ring-1 sm:p-8 ${contact.isEmergency ? 'bg-brand-900 text-white ring-brand-900' : 'bg-white ring-slate-900/5'}`}
      data-testid="contact-large"
    >
      <h2 className={`text-2xl font-bold ${contact.isEmergency ? 'text-white' : 'text-brand-700'}`}>
        {contact.category}
      </h2>
      {contact.isEmergency ? (
        <>
          <p className="inline-flex w-fit items-center gap-2 rounded-full bg-accent-700 px-3 py-1 text-sm font-bold uppercase tracking-wide text-white">
            Emergencias 24/7
          </p>
          <p className="text-brand-50">{contact.label}</p>
          <div>
            <p className="mb-2 font-semibold">Escríbenos por WhatsApp</p>
            <ul className="space-y-2">
              {whatsapps.map((phone) => (
                <li key={phone}>
                  <a
                    href={whatsappHref(phone)}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex items-center gap-2 rounded-xl bg-white px-4 py-2 font-bold text-green-800 hover:bg-brand-50"
                  >
                    <span className="sr-only">WhatsApp </span>
                    {phone}
                  </a>
                </li>
              ))}
            </ul>
          </div>
          {contact.phones.length > 0 ? (
            <div>
              <p className="mb-1 font-semibold">O llámanos</p>
              <ul className="space-y-1">
                {contact.phones.map((phone) => {
                  const href = contactPhoneHref(phone);
                  return (
                    <li key={phone}>
                      {href ? (
                        <a href={href} className="font-semibold text-white underline underline-offset-2">
                          {phone}
                        </a>
                      ) : (
                        phone
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
          ) : null}
          {contact.banner ? <p className="text-sm text-brand-100">{contact.banner}</p> : null}
        </>
      ) : (
        <>
          <p className="text-slate-700">{contact.label}</p>
          {contact.phones.length > 0 ? (
            <ul className="space-y-1">
              {contact.phones.map((phone) => (
                <li key={phone}>
                  <Phone phone={phone} />
                </li>
              ))}
            </ul>
          ) : null}
          {whatsapps.length > 0 ? (
            <ul className="space-y-1">
              {whatsapps.map((phone) => (
                <li key={phone}>
                  <WhatsappLink phone={phone} />
                </li>
              ))}
            </ul>
          ) : null}
          <Emails contact={contact} />
          {contact.banner ? <p className="text-sm text-slate-600">{contact.banner}</p> : null}
          {contact.url ? (
            <SmartLink
              href={contact.url.href}
              isPlain={isPlainLink}
              className="mt-auto inline-block w-fit rounded-xl bg-accent-700 px-5 py-2.5 font-bold text-white shadow hover:bg-accent-800"
            >
              {contact.url.label}
            </SmartLink>
          ) : null}
        </>
      )}
    </article>
  );
}

/** A middle entry (spec §2): a small card with its label, phones and e-mail. */
function SmallCard({ contact }: { contact: Contact }) {
  return (
    <article
      className="flex flex-col gap-2 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5"
      data-testid="contact-small"
    >
      <h3 className="text-lg font-bold text-brand-700">{contact.category}</h3>
      <p className="text-sm text-slate-600">{contact.label}</p>
      {contact.phones.length > 0 ? (
        <ul className="space-y-0.5">
          {contact.phones.map((phone) => (
            <li key={phone}>
              <Phone phone={phone} />
            </li>
          ))}
        </ul>
      ) : null}
      <Emails contact={contact} />
    </article>
  );
}

/** The last entry (spec §2): a card that leads to the contact form. */
function FormCard({ contact }: { contact: Contact }) {
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

/** The banner (spec §2): the emergency e-mail, and the phones for other queries. */
function Banner({ emergency, infos }: { emergency: Contact | undefined; infos: ContactInfo[] }) {
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

/**
 * Contáctanos (spec §2): the first two entries as large cards, the middle ones as small cards, the last one as the
 * way to the form, and a banner with the emergency e-mail and the phones for other queries.
 */
export function ContactDirectory({ contacts, infos }: { contacts: Contact[]; infos: ContactInfo[] }) {
  const large = contacts.slice(0, 2);
  const last = contacts.length > 2 ? contacts[contacts.length - 1] : undefined;
  const middle = contacts.slice(2, last ? -1 : undefined);
  const emergency = contacts.find((contact) => contact.isEmergency);
  return (
    <div className="grid gap-6">
      {large.length > 0 ? (
        <div className="grid gap-6 lg:grid-cols-2">
          {large.map((contact) => (
            <LargeCard key={`${contact.category}-${contact.label}`} contact={contact} />
          ))}
        </div>
      ) : (
        <p className="text-slate-600">Pronto publicaremos nuestros canales de contacto.</p>
      )}
      {middle.length > 0 ? (
        <section aria-labelledby="more-channels">
          <h2 id="more-channels" className="mb-3 text-xl font-bold text-slate-900">
            Más canales
          </h2>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {middle.map((contact) => (
              <SmallCard key={`${contact.category}-${contact.label}`} contact={contact} />
            ))}
          </div>
        </section>
      ) : null}
      {last ? <FormCard contact={last} /> : null}
      <Banner emergency={emergency} infos={infos} />
    </div>
  );
}
