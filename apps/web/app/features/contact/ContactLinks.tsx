import { contactPhoneHref, whatsappHref } from '@travesia/domain/links';
import type { ReactNode } from 'react';
import type { Contact } from './contact.server.ts';

/** A phone as a `tel:` link (spec §9 cleaning, prefix 56, up to 14 digits), or as text when it cannot be one. */
export function Phone({ phone }: { phone: string }) {
  const href = contactPhoneHref(phone);
  return href ? (
    <a href={href} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
      {phone}
    </a>
  ) : (
    <span className="font-semibold text-slate-800">{phone}</span>
  );
}

export function WhatsappLink({ phone }: { phone: string }) {
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

/** A contact's phones, WhatsApp lines or e-mails, one a row, each as `children` shows it; nothing when there is none. */
export function ContactRows({
  items,
  className = 'space-y-1',
  children,
}: {
  items: readonly string[];
  className?: string;
  children: (item: string) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item}>{children(item)}</li>
      ))}
    </ul>
  );
}

export function Emails({ contact }: { contact: Contact }) {
  return (
    <ContactRows items={contact.emails.map(({ email }) => email)}>
      {(email) => (
        <a href={`mailto:${email}`} className="break-all text-brand-700 underline underline-offset-2">
          {email}
        </a>
      )}
    </ContactRows>
  );
}

export const whatsappsOf = (contact: Contact) =>
  [contact.whatsapp.phone1, contact.whatsapp.phone2].filter((phone): phone is string => Boolean(phone)).slice(0, 2);
