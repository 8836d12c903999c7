import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// In `npm run dev` the storefront runs on Vite and the API on its own port; /api is proxied to it.
export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  server: {
    port: 5173,
    proxy: { '/api': process.env.API_ORIGIN ?? 'http://localhost:3000' },
  },
});
