/**
 * What `npm start` adds to the environment before the server loads (apps/api/src/start.ts): the storefront is always
 * the production build (build/client, React Router's production mode), so React renders it with its production build
 * too (NODE_ENV=production, read by React when it is first loaded). When the operator did not set NODE_ENV, that is
 * all it means: the store stays a local one (DEPLOYMENT=local: the demo data, the test gateway, no secrets needed),
 * so `npm ci && npm start` works on a fresh machine. An operator who sets NODE_ENV=production (a real deployment,
 * as before) or DEPLOYMENT=production gets every strict check of a production deployment (config.ts).
 * docs/decisions/012-production-mode-and-deployment.md.
 */
export function startEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  if (env.NODE_ENV) return {};
  return { NODE_ENV: 'production', DEPLOYMENT: env.DEPLOYMENT || 'local' };
}
