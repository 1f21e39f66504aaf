// A child process of the proxy bench: bare Hono answering GET /api/polls/:pollId with the bytes in BARE_BODY_FILE
// (the proxy's own answer), on PORT; prints "ready" once listening. With BARE_HEADERS_FILE (a JSON object of the
// proxy's answer headers), it sends those headers too, as they are (the `Age` and request id fixed): what the
// headers alone cost.
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { listenOnLoopback } from '../../src/node/loopback-server.ts';

const body = readFileSync(process.env.BARE_BODY_FILE ?? '', 'utf8');
const headersFile = process.env.BARE_HEADERS_FILE;
const headers: Record<string, string> =
  headersFile === undefined || headersFile === ''
    ? { 'Content-Type': 'application/json; charset=utf-8' }
    : (JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>);
const app = new Hono();
app.get('/api/polls/:pollId', (c) => c.body(body, 200, headers));
await listenOnLoopback(app.fetch, Number(process.env.PORT));
console.log('ready');
