import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { render } from '@react-email/render';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { type CSSProperties, createElement as h, type ReactNode } from 'react';
import type { EmailBlock, EmailContent } from './email-html.ts';

/**
 * The one layout of every e-mail the API sends (docs/email.md), built with react-email's components: a teal band with
 * the store's name as the logo (text, no image to load), the content on a white card at most 600 px wide, a footer.
 * Inline styles for the clients that drop <style>; the <style> block adds the phone widths and the dark scheme.
 */

/** The storefront's colours (apps/web/app/app.css). */
export const emailColours = {
  brand700: '#0b5563',
  brand900: '#06323a',
  brand50: '#e8f4f6',
  brand100: '#cce6ea',
  accent500: '#f26b4f',
  accent700: '#cd4a2f',
  ink: '#1e293b',
  muted: '#475569',
  page: '#f1f5f9',
} as const;

const c = emailColours;
const font = '"Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif';
// Long links and codes wrap instead of widening the message on a phone.
const wrap: CSSProperties = { overflowWrap: 'anywhere', wordBreak: 'break-word' };
const paragraph: CSSProperties = { fontSize: '16px', lineHeight: '24px', color: c.ink, margin: '0 0 16px', ...wrap };

// Dark scheme: clients that honour prefers-color-scheme (Apple Mail, Outlook for Mac, iOS) get dark surfaces and light
// text; the others keep the light card, whose colours are all set inline (nothing relies on the client's default).
const css = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media only screen and (max-width: 620px) {
  .tv-card { padding: 24px 16px !important; }
  .tv-band { padding: 16px !important; }
  .tv-outer { padding: 0 !important; }
  .tv-band, .tv-card { border-radius: 0 !important; }
  .tv-box { padding: 12px !important; }
}
@media (prefers-color-scheme: dark) {
  body.tv-body, body.tv-body > table > tbody > tr > td, .tv-outer { background-color: #0f172a !important; }
  .tv-card { background-color: #1e293b !important; }
  .tv-card p, .tv-card td, .tv-card th, .tv-card li, .tv-card blockquote { color: #e2e8f0 !important; }
  .tv-card a:not(.tv-button) { color: #7dd3e0 !important; }
  .tv-box { background-color: #0b3b44 !important; border-color: #137888 !important; }
  .tv-notice { background-color: #3b1d14 !important; border-color: ${c.accent500} !important; }
  .tv-footer p { color: #94a3b8 !important; }
}
`;

/** The longest box line kept on one line: it fits a 375 px screen at 15 px (e2e/email-layout.spec.ts checks). */
const shortLine = 42;

/** Text with its line breaks kept as <br> (one string per text node: React adds no separators then). */
function lines(text: string): ReactNode[] {
  return text.split('\n').flatMap((line, index) => (index === 0 ? [line] : [h('br', { key: index }), line]));
}

function block(item: EmailBlock, key: number): ReactNode {
  switch (item.type) {
    case 'text':
      return h(
        Text,
        { key, style: { ...paragraph, ...(item.strong ? { fontWeight: 700 } : {}) } },
        ...lines(item.text),
      );
    case 'link':
      return h(
        Text,
        { key, style: paragraph },
        item.before,
        h(Link, { href: item.href, style: { color: c.brand700, textDecoration: 'underline' } }, item.label),
        item.after,
      );
    case 'button':
      return h(
        Section,
        { key, style: { margin: '8px 0 24px' } },
        h(
          Button,
          {
            href: item.href,
            className: 'tv-button',
            style: {
              backgroundColor: c.accent700,
              color: '#ffffff',
              fontSize: '16px',
              fontWeight: 700,
              borderRadius: '8px',
              padding: '14px 24px',
              textDecoration: 'none',
              ...wrap,
            },
          },
          item.label,
        ),
      );
    case 'code':
      return h(
        Text,
        {
          key,
          style: {
            ...paragraph,
            fontSize: '30px',
            lineHeight: '40px',
            fontWeight: 700,
            letterSpacing: '6px',
            textAlign: 'center',
            color: c.brand900,
            backgroundColor: c.brand50,
            borderRadius: '8px',
            padding: '12px 0',
          },
          className: 'tv-box',
        },
        item.code,
      );
    case 'notice':
      return h(
        Text,
        {
          key,
          className: 'tv-notice',
          style: {
            ...paragraph,
            fontWeight: 700,
            backgroundColor: '#fdece8',
            border: `2px solid ${c.accent700}`,
            borderRadius: '8px',
            padding: '12px 16px',
          },
        },
        ...lines(item.text),
      );
    case 'box':
      return h(
        Section,
        {
          key,
          className: 'tv-box',
          style: {
            backgroundColor: c.brand50,
            border: `1px solid ${c.brand100}`,
            borderLeft: `4px solid ${c.brand700}`,
            borderRadius: '8px',
            padding: '16px',
            margin: '0 0 16px',
          },
        },
        ...(item.title
          ? [h(Text, { key: 't', style: { ...paragraph, fontWeight: 700, margin: '0 0 8px' } }, item.title)]
          : []),
        h(
          Text,
          { key: 'b', style: { ...paragraph, fontSize: '15px', margin: 0 } },
          // A short line (a phone number with its label) is kept whole: «+1 (786) 347 2210» never breaks in two.
          ...item.lines.flatMap((line, index) => [
            ...(index === 0 ? [] : [h('br', { key: `br${index}` })]),
            line.length <= shortLine ? h('span', { key: index, style: { whiteSpace: 'nowrap' } }, line) : line,
          ]),
        ),
      );
    case 'rows':
      return h(
        'table',
        {
          key,
          role: 'presentation',
          width: '100%',
          cellPadding: 0,
          cellSpacing: 0,
          style: { borderCollapse: 'collapse', margin: '0 0 16px', ...wrap },
        },
        h(
          'tbody',
          null,
          item.rows.map(([label, value], index) =>
            h(
              'tr',
              { key: index, style: { borderBottom: `1px solid ${c.brand100}` } },
              h(
                'th',
                {
                  align: 'left',
                  valign: 'top',
                  style: {
                    fontSize: '14px',
                    lineHeight: '20px',
                    color: c.muted,
                    fontWeight: 600,
                    padding: '8px 12px 8px 0',
                    width: '38%',
                  },
                },
                label,
              ),
              h(
                'td',
                {
                  valign: 'top',
                  style: { fontSize: '15px', lineHeight: '20px', color: c.ink, padding: '8px 0', ...wrap },
                },
                value,
              ),
            ),
          ),
        ),
      );
    case 'quote':
      return h(
        'blockquote',
        {
          key,
          style: {
            margin: '0 0 16px',
            padding: '8px 16px',
            borderLeft: `4px solid ${c.brand100}`,
            color: c.muted,
            fontSize: '15px',
            lineHeight: '22px',
            ...wrap,
          },
        },
        ...lines(item.text),
      );
  }
}

function email(content: EmailContent): ReactNode {
  const brand = content.brand;
  return h(
    Html,
    { lang: 'es-CL', dir: 'ltr' },
    h(
      Head,
      null,
      h('meta', { name: 'color-scheme', content: 'light dark' }),
      h('meta', { name: 'supported-color-schemes', content: 'light dark' }),
      h('title', null, content.title),
      h('style', null, css),
    ),
    h(Preview, null, content.preview),
    h(
      Body,
      { className: 'tv-body', style: { backgroundColor: c.page, margin: 0, padding: 0, fontFamily: font } },
      h(
        Container,
        { className: 'tv-outer', style: { maxWidth: '600px', width: '100%', padding: '24px 0' } },
        // The logo: the store's name in the storefront's type on its teal band (no image that a client may block).
        h(
          Section,
          {
            className: 'tv-band',
            style: { backgroundColor: c.brand700, padding: '20px 32px', borderRadius: '12px 12px 0 0' },
          },
          h(
            Text,
            {
              style: {
                margin: 0,
                fontSize: '24px',
                lineHeight: '32px',
                fontWeight: 800,
                color: '#ffffff',
                letterSpacing: '0.5px',
              },
            },
            brand,
          ),
          h(
            Text,
            { style: { margin: 0, fontSize: '13px', lineHeight: '18px', color: c.brand100 } },
            'Asistencia en viaje',
          ),
        ),
        h(
          Section,
          {
            className: 'tv-card',
            style: {
              backgroundColor: '#ffffff',
              padding: '32px',
              borderBottom: `4px solid ${c.accent500}`,
              borderRadius: '0 0 12px 12px',
            },
          },
          ...content.blocks.map(block),
        ),
        h(
          Section,
          { className: 'tv-footer', style: { padding: '16px 32px' } },
          h(Hr, { style: { borderColor: '#cbd5e1', margin: '0 0 12px' } }),
          ...content.footer.map((line, index) =>
            h(
              Text,
              {
                key: index,
                style: { fontSize: '12px', lineHeight: '18px', color: c.muted, margin: '0 0 4px', ...wrap },
              },
              line,
            ),
          ),
        ),
      ),
    ),
  );
}

/** The HTML part of an e-mail: its content in the store's layout. */
export function renderEmail(content: EmailContent): Promise<string> {
  return render(email(content));
}
