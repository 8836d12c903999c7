import { ContactBanner } from './ContactBanner.tsx';
import { FormContactCard, SmallContactCard } from './ContactCards.tsx';
import type { Contact, ContactInfo } from './contact.server.ts';
import { LargeContactCard } from './LargeContactCard.tsx';

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
            <LargeContactCard key={`${contact.category}-${contact.label}`} contact={contact} />
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
              <SmallContactCard key={`${contact.category}-${contact.label}`} contact={contact} />
            ))}
          </div>
        </section>
      ) : null}
      {last ? <FormContactCard contact={last} /> : null}
      <ContactBanner emergency={emergency} infos={infos} />
    </div>
  );
}
