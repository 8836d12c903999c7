import { PDFDocument, StandardFonts } from 'pdf-lib';
import { brand, muted, PdfWriter } from '#app/modules/certificates/pdf.ts';

/** What the general conditions PDF prints: the terms page of the legal module and who sells. */
export type ConditionsData = {
  title: string;
  bodyHtml: string;
  updatedAt: string;
  seller: { name: string; legalName: string; rut: string; address: string; email: string | null; phone: string | null };
};

type Block = { kind: 'heading' | 'paragraph' | 'item'; text: string };

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
function plain(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return entities[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The stored HTML of the terms as printable blocks: headings, paragraphs and list items (the tags the legal pages
 * use); any other markup is read as its text. Links print their text and, when it differs, their address.
 */
export function conditionsBlocks(html: string): Block[] {
  const withLinks = html.replace(
    /<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi,
    (_whole, href: string, text: string) =>
      plain(text) === href || href.includes(plain(text)) ? text : `${text} (${href})`,
  );
  const blocks: Block[] = [];
  const pattern = /<(h[1-6]|p|li)\b[^>]*>([\s\S]*?)<\/\1>/gi;
  for (const match of withLinks.matchAll(pattern)) {
    const tag = (match[1] ?? '').toLowerCase();
    const text = plain(match[2] ?? '');
    if (!text) continue;
    blocks.push({ kind: tag.startsWith('h') ? 'heading' : tag === 'li' ? 'item' : 'paragraph', text });
  }
  if (blocks.length === 0 && plain(withLinks)) blocks.push({ kind: 'paragraph', text: plain(withLinks) });
  return blocks;
}

/**
 * The general conditions as a printable PDF, built from the same content /terminos shows. Its dates are the page's
 * last change, so the same content gives the same bytes (and the same ETag) on every instance.
 */
export async function renderConditionsPdf(data: ConditionsData): Promise<Uint8Array> {
  const updated = new Date(data.updatedAt);
  const document = await PDFDocument.create({ updateMetadata: false });
  document.setTitle(`${data.title} – ${data.seller.name}`);
  document.setAuthor(data.seller.legalName);
  document.setLanguage('es-CL');
  document.setCreationDate(updated);
  document.setModificationDate(updated);
  const fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
  };
  const writer = new PdfWriter(document, document.addPage([595.28, 841.89]), fonts);
  writer.banner(`${data.seller.name} · Condiciones generales`, data.title);
  writer.text(data.title, { size: 16, bold: true, color: brand });
  writer.text(`Actualizadas el ${data.updatedAt.slice(0, 10).split('-').reverse().join('-')}.`, { color: muted });
  writer.gap(6);
  for (const block of conditionsBlocks(data.bodyHtml)) {
    if (block.kind === 'heading') writer.heading(block.text);
    else if (block.kind === 'item') writer.text(`• ${block.text}`, { x: 60, width: 485 });
    else {
      writer.text(block.text);
      writer.gap(4);
    }
  }
  writer.gap(12);
  const contact = [data.seller.email, data.seller.phone].filter(Boolean).join(' · ');
  writer.text(
    `${data.seller.legalName} · RUT ${data.seller.rut} · ${data.seller.address}${contact ? ` · ${contact}` : ''}.`,
    { size: 8, color: muted },
  );
  return document.save();
}
