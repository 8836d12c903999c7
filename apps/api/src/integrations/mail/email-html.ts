/**
 * What an e-mail says, as blocks the one layout (layout.ts, react-email) draws: every e-mail of the API goes through
 * emailHtml, so all of them look like the store (docs/email.md). Its text part is written beside it, with the same
 * words, by the e-mail's own module.
 */
export type EmailBlock =
  /** A paragraph; its line breaks are kept. */
  | { type: 'text'; text: string; strong?: boolean }
  /** A paragraph with one link in it: `before` <a href>label</a> `after`. The href is absolute (PUBLIC_URL). */
  | { type: 'link'; before: string; href: string; label: string; after: string }
  /** The e-mail's main action, as a button. The href is absolute (PUBLIC_URL). */
  | { type: 'button'; href: string; label: string }
  /** A one-time code, large and spaced. */
  | { type: 'code'; code: string }
  /** A warning the reader must not miss (a test payment's). */
  | { type: 'notice'; text: string }
  /** A framed box: the emergency numbers, the amounts paid. */
  | { type: 'box'; title?: string; lines: string[] }
  /** A small two-column table (label, value). */
  | { type: 'rows'; rows: [string, string][] }
  /** Someone's quoted words. */
  | { type: 'quote'; text: string };

export type EmailContent = {
  /** The store's name, drawn as the logo. */
  brand: string;
  /** The document's title (the subject). */
  title: string;
  /** The inbox preview line. */
  preview: string;
  blocks: EmailBlock[];
  /** Small print under the card. */
  footer: string[];
};

/**
 * The HTML part of an e-mail in the store's layout. React and react-email load on the first e-mail, not at start-up
 * (a web process whose worker runs elsewhere never loads them), as nodemailer does.
 */
export async function emailHtml(content: Omit<EmailContent, 'footer'> & { footer?: string[] }): Promise<string> {
  const { renderEmail } = await import('./layout.ts');
  return renderEmail({
    ...content,
    footer: content.footer ?? [`Este correo lo envió ${content.brand}.`],
  });
}
