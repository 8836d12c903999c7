/** Every page's <title>: the screen, then the console's name. */
export function pageTitle(screen: string): string {
  return `${screen} · Consola Travesía`;
}
