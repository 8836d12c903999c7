import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
const session = new Session();
beforeAll(async () => { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start'); });
afterAll(async () => { const { profile } = await session.post('Profiler.stop'); writeFileSync(`/tmp/prof4/${process.pid}-${Date.now()}.cpuprofile`, JSON.stringify(profile)); });
