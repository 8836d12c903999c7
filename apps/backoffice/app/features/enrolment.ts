/** The secret in groups of four, easier to type into an authenticator by hand. */
export function groupedSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** The recovery codes as the downloaded text file holds them, one a line, with what they are for. */
export function recoveryCodesFile(email: string, codes: string[]): string {
  return [
    `Códigos de recuperación de la consola Travesía para ${email}`,
    'Cada código sirve una sola vez, en lugar del código de tu aplicación de autenticación.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** A download link's address for a text file, built without scripts. */
export function textDownloadHref(text: string): string {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
}
