/**
 * What is left of a visitor's text once the characters nobody types on purpose are gone: the C0 and C1 control
 * characters (ESC, BEL, backspace, NUL…, which a terminal obeys: issue 22), DEL, and the invisible bidi and
 * zero-width marks that make a file name or a line read other than it is (`boleta\u202Efdp.exe`). The text rules of
 * rules.ts apply it to every field before their checks, so nothing stored, e-mailed, printed or written to disk
 * carries them.
 *
 * A line break or a tab is a space in a one-line field (a pasted name keeps its words apart); a field that takes
 * several lines (`multiline`: a description) keeps its line breaks as `\n` (CR LF, CR, U+2028/2029 and NEL alike).
 */
export function visibleText(value: string, options: { multiline?: boolean } = {}): string {
  const lineBreak = options.multiline ? '\n' : ' ';
  return value.replace(lineBreaks, lineBreak).replace(spacingControls, ' ').replace(invisibleCharacters, '');
}

const lineBreaks = /\r\n|[\r\n\u0085\u2028\u2029]/g;
/** Tab, vertical tab, form feed: whitespace that a one-line reader sees as a space. */
const spacingControls = /[\t\v\f]/g;
/**
 * C0 (but the `\n` kept above), DEL, C1, and the format characters that steer direction or hide
 * (LRM/RLM, ALM, LRE…RLO, LRI…PDI, zero-width space, word joiner, BOM). Zero-width (non-)joiners stay: emoji and some
 * scripts need them.
 */
const invisibleCharacters =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it takes out
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
