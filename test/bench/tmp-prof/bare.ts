import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { listenOnLoopback } from '../../../src/node/loopback-server.ts';
const body = readFileSync(process.env.BARE_BODY_FILE ?? '', 'utf8');
const app = new Hono();
app.get('/api/polls/:pollId', (c) => c.body(body, 200, { 'Content-Type': 'application/json; charset=utf-8' }));
await listenOnLoopback(app.fetch, Number(process.env.PORT));
process.once('SIGTERM', () => process.exit(0));
console.log('ready');
