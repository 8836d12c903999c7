/**
 * Text from the database or a visitor, made safe to print on an operator's terminal: every control character (C0,
 * DEL, C1: ESC starts the sequences that clear the screen, retitle the window, fake a link or hide what follows),
 * line break and invisible bidi or zero-width mark is shown as its escape (`\u001b`) instead of being obeyed, so one
 * printed line is one line and says what is stored. Texts stored before the rules stripped them (issue 22) included.
 */
export function printable(value: string): string {
  return value.replace(
    unprintable,
    (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

const unprintable =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it takes out
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
