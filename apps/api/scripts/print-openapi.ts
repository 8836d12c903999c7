// Prints the API's OpenAPI document (generated from the zod route schemas) for the web app's typed client.
// Routes need no database to be described, so none is opened.
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import type { Database } from '#app/db/client.ts';

const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db: {} as Database });
await app.ready();
process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
