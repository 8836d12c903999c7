import { contactPhoneHref, isPlainLink, whatsappHref } from '@travesia/domain/links';
import { SmartLink } from '#app/components/SmartLink.tsx';
import { ContactRows, Emails, Phone, WhatsappLink, whatsappsOf } from './ContactLinks.tsx';
import type { Contact } from './contact.server.ts';

/** The first two entries (spec §2): category heading; the emergency one lists its lines on WhatsApp with its label. */
export function LargeContactCard({ contact }: { contact: Contact }) {
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
              <ContactRows items={contact.phones}>{(phone) => <EmergencyPhone phone={phone} />}</ContactRows>
            </div>
          ) : null}
          {contact.banner ? <p className="text-sm text-brand-100">{contact.banner}</p> : null}
        </>
      ) : (
        <>
          <p className="text-slate-700">{contact.label}</p>
          <ContactRows items={contact.phones}>{(phone) => <Phone phone={phone} />}</ContactRows>
          <ContactRows items={whatsapps}>{(phone) => <WhatsappLink phone={phone} />}</ContactRows>
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

/** A phone of the emergency card: a white `tel:` link on the dark card, or as text when it cannot be one. */
function EmergencyPhone({ phone }: { phone: string }) {
  const href = contactPhoneHref(phone);
  return href ? (
    <a href={href} className="font-semibold text-white underline underline-offset-2">
      {phone}
    </a>
  ) : (
    phone
  );
}
