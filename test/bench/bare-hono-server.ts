// A child process of the proxy bench: bare Hono answering GET /api/polls/:pollId with the bytes in BARE_BODY_FILE
// (the proxy's own answer), on PORT; prints "ready" once listening.
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { listenOnLoopback } from '../../src/node/loopback-server.ts';

const body = readFileSync(process.env.BARE_BODY_FILE ?? '', 'utf8');
const app = new Hono();
app.get('/api/polls/:pollId', (c) =>
  c.body(body, 200, { 'Content-Type': 'application/json; charset=utf-8' }),
);
await listenOnLoopback(app.fetch, Number(process.env.PORT));
console.log('ready');
