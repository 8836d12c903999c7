import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// The console's own bundle (never the storefront's), served under /backoffice by the API process.
// In `npm run dev` the console runs on Vite and the API on its own port; /api is proxied to it.
export default defineConfig({
  base: '/backoffice/',
  plugins: [tailwindcss(), reactRouter()],
  server: {
    port: 5174,
    proxy: { '/api': process.env.API_ORIGIN ?? 'http://localhost:3000' },
  },
});
