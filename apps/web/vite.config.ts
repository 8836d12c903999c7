import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

/**
 * React, React DOM and React Router, which every page runs, in one file instead of five (the entry, React Router's
 * chunk, the react-dom and jsx-runtime shims, scheduler): fewer requests before a page can hydrate, each of them a
 * round trip on a slow phone connection (docs/performance.md, «Lighthouse»).
 */
const framework = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/;

/**
 * The RUT helpers on a chunk of their own: the passengers form tidies a RUT on blur without loading the domain's
 * rules and zod (~30 kB gzip), which it fetches only when first checked (the purchase step's blocking time).
 */
const rut = /[\\/]packages[\\/]domain[\\/]src[\\/]rut\.ts$/;

// In `npm run dev` the storefront runs on Vite and the API on its own port; /api is proxied to it.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  build: isSsrBuild
    ? {}
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'framework', test: framework },
                { name: 'rut', test: rut },
              ],
            },
          },
        },
      },
  server: {
    port: 5173,
    proxy: { '/api': process.env.API_ORIGIN ?? 'http://localhost:3000' },
  },
}));
