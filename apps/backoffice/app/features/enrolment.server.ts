/** The QR the API drew (an SVG document) as an image URL: shown as an <img>, so nothing in it can run as a script. */
export function qrImageSource(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
