import { phoneHref, whatsappHref } from '@travesia/domain/links';
import { uiMessages } from '@travesia/domain/messages';
import { Modal } from '#app/components/Modal.tsx';
import { useWebsite } from '#app/lib/website.ts';

/** «¿Necesitas ayuda o información?»: one card per contact with phone and, when present, WhatsApp (spec §2). */
export function HelpModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { website } = useWebsite();
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={uiMessages.helpModalTitle}>
      {website.contacts.length === 0 ? (
        <p className="text-slate-600">Pronto publicaremos nuestros canales de contacto.</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Canales de contacto">
          {website.contacts.map((contact) => (
            <li
              key={`${contact.label}-${contact.phone}`}
              className={`flex gap-3 rounded-xl border p-4 ${contact.isEmergency ? 'border-accent-500 bg-orange-50' : 'border-slate-200'}`}
              data-testid="help-contact"
            >
              <img src={contact.icon} alt="" loading="lazy" width={32} height={32} className="h-8 w-8 shrink-0" />
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">{contact.label}</p>
                <a
                  className="block font-medium text-brand-700 underline-offset-2 hover:underline"
                  href={phoneHref(contact.phone)}
                >
                  {contact.phone}
                </a>
                {contact.whatsapp ? (
                  <a
                    className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-green-700 hover:underline"
                    href={whatsappHref(contact.whatsapp)}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    WhatsApp {contact.whatsapp}
                  </a>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
