/**
 * Colours configured on the server (the nav's highlighted button, footer texts…) are shown as given unless they are
 * too faint against what they sit on: then only their lightness changes (in OKLCH, so the hue stays the one the
 * company chose), just enough to reach the contrast WCAG 2.2 AA asks of text (1.4.3: 4.5:1). Only #rgb and #rrggbb
 * can be checked; anything else is left as is.
 */

type Rgb = [number, number, number];
type Triple = [number, number, number];

/** WCAG 2.2 AA, 1.4.3: normal-size text against its background. */
export const textContrast = 4.5;

function parseHex(value: string): Rgb | null {
  const hex = value.trim().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/i.test(hex)) return [...hex].map((digit) => Number.parseInt(digit.repeat(2), 16)) as Rgb;
  if (/^[0-9a-f]{6}$/i.test(hex)) return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
  return null;
}

const toHex = (rgb: Rgb) => `#${rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;

const toLinear = (channel: number) => {
  const value = channel / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
};
const fromLinear = (value: number) =>
  Math.round(255 * (value <= 0.0031308 ? 12.92 * value : 1.055 * value ** (1 / 2.4) - 0.055));

function luminance([r, g, b]: Rgb): number {
  return 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);
}

function ratio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The WCAG contrast ratio of two colours, or null when either is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const first = parseHex(a);
  const second = parseHex(b);
  return first && second ? ratio(first, second) : null;
}

// OKLab (Björn Ottosson), from and to linear sRGB.
function toOklab(rgb: Rgb): Triple {
  const [r, g, b] = rgb.map(toLinear) as Triple;
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function oklabToLinear([lightness, a, b]: Triple): Triple {
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** The colour of this OKLCH lightness and hue, with as much of the chroma as sRGB can show. */
function fromOklch(lightness: number, chroma: number, hue: number): Rgb {
  let c = chroma;
  let linear = oklabToLinear([lightness, c * Math.cos(hue), c * Math.sin(hue)]);
  while (c > 0 && linear.some((value) => value < -0.0001 || value > 1.0001)) {
    c = Math.max(0, c - 0.002);
    linear = oklabToLinear([lightness, c * Math.cos(hue), c * Math.sin(hue)]);
  }
  return linear.map((value) => fromLinear(Math.min(1, Math.max(0, value)))) as Rgb;
}

/**
 * `color`, darkened or lightened (away from `against`, same hue) only as much as needed to reach `minimum`
 * against it; unchanged when it already does, or when either is not a hex colour.
 */
export function readableOn(color: string, against: string, minimum = textContrast): string {
  const rgb = parseHex(color);
  const background = parseHex(against);
  if (!rgb || !background || ratio(rgb, background) >= minimum) return color;
  const lighten = ratio([255, 255, 255], background) > ratio([0, 0, 0], background);
  const [lightness, a, b] = toOklab(rgb);
  const chroma = Math.hypot(a, b);
  const hue = Math.atan2(b, a);
  for (let step = 1; step <= 100; step += 1) {
    const shifted = lighten ? lightness + ((1 - lightness) * step) / 100 : lightness - (lightness * step) / 100;
    const candidate = fromOklch(shifted, chroma, hue);
    if (ratio(candidate, background) >= minimum) return toHex(candidate);
  }
  return lighten ? '#ffffff' : '#000000';
}
