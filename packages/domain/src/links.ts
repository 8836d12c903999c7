/**
 * Link helpers. Spec: "Phone-link cleaning removes spaces and parentheses; tel pattern allows up to 14 digits";
 * the WhatsApp link also strips the plus sign; footer links that are an "http/https address or tel:+ up to 14 digits"
 * are plain links, every other href is routed inside the app.
 */

/** Removes whitespace and parentheses, and nothing else: `+56 (2) 2345 6789` → `+56223456789`. */
export function cleanPhone(phone: string): string {
  return phone.replace(/[\s()]/g, '');
}

/** `tel:` link of a phone number: `+56 (2) 2345 6789` → `tel:+56223456789`. */
export function phoneHref(phone: string): string {
  return `tel:${cleanPhone(phone)}`;
}

/** Number as WhatsApp expects it: cleaned, then every `+` and `-` removed: `+56 9 8765 4321` → `56987654321`. */
export function whatsappNumber(phone: string): string {
  return cleanPhone(phone).replace(/[+-]/g, '');
}

/** WhatsApp chat link: `+56 9 8765 4321` → `https://wa.me/56987654321`. */
export function whatsappHref(phone: string): string {
  return `https://wa.me/${whatsappNumber(phone)}`;
}

/** Spec §9: the country prefix of a contact phone written without one. */
export const contactPhonePrefix = '56';

/**
 * The `tel:` link of a directory phone (spec §9: cleaned of spaces and parentheses, prefix 56 when it has no `+`
 * country code), or null when the result is not `tel:+` and up to 14 digits (then the number is shown as text).
 */
export function contactPhoneHref(phone: string): string | null {
  const cleaned = cleanPhone(phone).replace(/-/g, '');
  if (!/\d/.test(cleaned)) return null;
  const href = `tel:${cleaned.startsWith('+') ? cleaned : `+${contactPhonePrefix}${cleaned}`}`;
  return telPattern.test(href) ? href : null;
}

const externalPattern = /^https?:\/\/\S+$/i;
const telPattern = /^tel:\+\d{1,14}$/i;

/** True for an http/https address (scheme in any case). Used by the nav bar. */
export function isExternalLink(href: string): boolean {
  return externalPattern.test(href);
}

/** True for an http/https address or `tel:+` followed by 1 to 14 digits; such hrefs are rendered as plain links. */
export function isPlainLink(href: string): boolean {
  return isExternalLink(href) || telPattern.test(href);
}

const siteRelativePattern = /^\/(?!\/)[^\s\\]*$/;
const fragmentPattern = /^#[\w-]*$/;

/**
 * True for a link an operator may put in the navigation bar or the footer (issue 25): an http/https address, a path
 * of the store (`/faq`, not `//host`), a fragment (`#ayuda`, the help button) or `tel:+` and up to 14 digits.
 * Everything else (`javascript:`, `data:`, `//evil.example`, a relative word) is refused on save.
 */
export function isSiteHref(href: string): boolean {
  if (href !== href.trim() || [...href].some((char) => char.charCodeAt(0) < 32)) return false;
  return (
    externalPattern.test(href) || siteRelativePattern.test(href) || fragmentPattern.test(href) || telPattern.test(href)
  );
}

/**
 * True for a WhatsApp number the store may link to: digits with an optional leading +, spaces, dashes or parentheses;
 * 8 to 15 digits in all (E.164), and a Chilean number (+56) has 9 digits after the country code (mobiles: 9 XXXX XXXX).
 */
export function isWhatsappPhone(phone: string): boolean {
  if (!/^\+?[\d\s()-]+$/.test(phone)) return false;
  const digits = whatsappNumber(phone);
  if (!/^\d{8,15}$/.test(digits)) return false;
  return !phone.trim().startsWith('+56') || /^56\d{9}$/.test(digits);
}
