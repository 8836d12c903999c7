import { describe, expect, it } from 'vitest';
import {
  cleanPhone,
  contactPhoneHref,
  isExternalLink,
  isPlainLink,
  isSiteHref,
  isWhatsappPhone,
  phoneHref,
  whatsappHref,
  whatsappNumber,
} from './links.ts';

describe('cleanPhone', () => {
  it.each([
    ['+56 (2) 2345 6789', '+56223456789'],
    ['+56 9 8765 4321', '+56987654321'],
    ['(2) 2345-6789', '22345-6789'],
    ['600 600 1234', '6006001234'],
    ['+56223456789', '+56223456789'],
    ['  +56  (9)  8765  4321  ', '+56987654321'],
    ['+56\t9\u00a08765 4321', '+56987654321'],
    ['', ''],
  ])('removes spaces and parentheses from %j', (phone, expected) => {
    expect(cleanPhone(phone)).toBe(expected);
  });

  it.each([
    ['+56-2-2345-6789', '+56-2-2345-6789'],
    ['+56.2.2345.6789', '+56.2.2345.6789'],
    ['[+56] 2', '[+56]2'],
  ])('keeps every other character (%s)', (phone, expected) => {
    expect(cleanPhone(phone)).toBe(expected);
  });
});

describe('phoneHref', () => {
  it.each([
    ['+56 (2) 2345 6789', 'tel:+56223456789'],
    ['+56 9 8765 4321', 'tel:+56987654321'],
    ['600 600 1234', 'tel:6006001234'],
  ])('builds a tel: link for %j', (phone, expected) => {
    expect(phoneHref(phone)).toBe(expected);
  });
});

describe('whatsappNumber', () => {
  it.each([
    ['+56 9 8765 4321', '56987654321'],
    ['+56987654321', '56987654321'],
    ['56987654321', '56987654321'],
    ['+56 (9) 8765-4321', '56987654321'],
    ['++56 9 8765 4321', '56987654321'],
    ['+56-9-8765-4321', '56987654321'],
  ])('strips spaces, parentheses, plus signs and dashes from %j', (phone, expected) => {
    expect(whatsappNumber(phone)).toBe(expected);
  });
});

describe('whatsappHref', () => {
  it.each([
    ['+56 9 8765 4321', 'https://wa.me/56987654321'],
    ['+56 (9) 1234 5678', 'https://wa.me/56912345678'],
    ['56912345678', 'https://wa.me/56912345678'],
  ])('builds a wa.me chat link for %j', (phone, expected) => {
    expect(whatsappHref(phone)).toBe(expected);
  });
});

describe('isPlainLink', () => {
  it.each([
    ['http://example.com'],
    ['https://example.com/path?q=1#x'],
    ['HTTPS://EXAMPLE.COM'],
    ['Http://example.com'],
    ['https://wa.me/56987654321'],
  ])('is true for the http/https address %s', (href) => {
    expect(isPlainLink(href)).toBe(true);
  });

  it.each([['tel:+56223456789'], ['tel:+1'], ['tel:+12345678901234'], ['TEL:+56223456789']])(
    'is true for tel:+ with 1 to 14 digits (%s)',
    (href) => {
      expect(isPlainLink(href)).toBe(true);
    },
  );

  it.each([
    ['tel:+123456789012345'],
    ['tel:12345'],
    ['tel:+'],
    ['tel:+56 2 2345 6789'],
    ['tel:+56-2-2345-6789'],
    ['tel:+5622345678x'],
    ['tel:++56223456789'],
  ])('is false for a tel link that is not + and 1 to 14 digits (%s)', (href) => {
    expect(isPlainLink(href)).toBe(false);
  });

  it.each([
    ['/faq'],
    ['faq'],
    ['mailto:info@example.com'],
    ['javascript:alert(1)'],
    ['ftp://example.com'],
    ['//example.com'],
    ['https://'],
    ['https:example.com'],
    [' https://example.com'],
    ['#top'],
    [''],
  ])('is false for %j (routed inside the app)', (href) => {
    expect(isPlainLink(href)).toBe(false);
  });
});

describe('isExternalLink', () => {
  it.each([['http://example.com'], ['https://example.com/x'], ['HTTPS://example.com']])(
    'is true for the http/https address %s',
    (href) => {
      expect(isExternalLink(href)).toBe(true);
    },
  );

  it.each([['tel:+56223456789'], ['/faq'], ['faq'], ['mailto:a@b.cl'], ['javascript:void(0)'], ['https://'], ['']])(
    'is false for %j',
    (href) => {
      expect(isExternalLink(href)).toBe(false);
    },
  );
});

describe('contactPhoneHref (spec §9: cleaning, prefix 56, tel pattern up to 14 digits)', () => {
  it.each([
    ['+56 (2) 2640 2020', 'tel:+56226402020'],
    ['+1 (786) 347 2210', 'tel:+17863472210'],
    ['(2) 2640-2000', 'tel:+56226402000'],
    ['9 4000 2000', 'tel:+56940002000'],
  ])('%j → %s', (phone, href) => {
    expect(contactPhoneHref(phone)).toBe(href);
  });

  it.each(['+56 2 2640 2020 anexo 4', '+123456789012345', '600 600 1234 5678', ''])(
    'no link for %j (not tel:+ and 1 to 14 digits)',
    (phone) => {
      expect(contactPhoneHref(phone)).toBeNull();
    },
  );
});

describe('isSiteHref (issue 25: links an operator may publish)', () => {
  it('takes http(s), store paths, fragments and tel:+digits', () => {
    for (const href of [
      'https://empresas.travesia.cl',
      'http://x.cl/a?b=1',
      '/faq',
      '/home#cotizar',
      '#ayuda',
      'tel:+56226402020',
    ]) {
      expect(isSiteHref(href), href).toBe(true);
    }
  });
  it('refuses scripts, data, protocol-relative, relative words and control characters', () => {
    for (const href of [
      'javascript:alert(1)',
      'JAVASCRIPT:x',
      ' javascript:x',
      'data:text/html,x',
      '//evil.example',
      'faq',
      '/a\\b',
      '/a\nb',
      'vbscript:x',
      'tel:+123456789012345',
    ]) {
      expect(isSiteHref(href), href).toBe(false);
    }
  });
});

describe('isWhatsappPhone', () => {
  it('takes a Chilean mobile and international numbers, refuses short, long and malformed ones', () => {
    for (const phone of ['+56 9 4000 2000', '56940002000', '+1 (786) 347-2210', '+34 612 345 678']) {
      expect(isWhatsappPhone(phone), phone).toBe(true);
    }
    for (const phone of ['+56 9 123', '+56 9 4000 20001', '1234567', 'wa.me/56940002000', '+56 9 4000 2000 ext', '']) {
      expect(isWhatsappPhone(phone), phone).toBe(false);
    }
  });
});
