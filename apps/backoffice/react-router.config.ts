import type { Config } from '@react-router/dev/config';

// The console lives under /backoffice of the API process (apps/api/src/backoffice-web.ts): every route and link is
// under that base, and its assets are built for /backoffice/assets/ (vite.config.ts `base`).
export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  basename: '/backoffice',
  ssr: true,
} satisfies Config;
