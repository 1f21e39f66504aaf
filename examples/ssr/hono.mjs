// The same page on Hono (here on Node with @hono/node-server; the route runs as it is on any fetch runtime that runs
// Lit SSR): `fan-polls/ssr` draws the card with the poll, `raw` puts its markup (already escaped) into Hono's `html`.
//   FAN_POLLS_PROXY=http://127.0.0.1:4020 PORT=8080 node hono.mjs   and open http://127.0.0.1:8080/?poll=POLL_ID
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { hydrateScriptUrl, readPoll, renderFanPoll } from 'fan-polls/ssr';

const proxy = process.env.FAN_POLLS_PROXY ?? 'http://127.0.0.1:4020';
const app = new Hono();

app.get('/', async (c) => {
  const pollId = c.req.query('poll') ?? '';
  const poll = await readPoll(proxy, pollId).catch(() => undefined);
  const card = await renderFanPoll(poll, { proxy, pollId, lang: 'en', campaign: 'match-report' });
  return c.html(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>Match report</title>
        </head>
        <body>
          <h1>Late header settles the derby</h1>
          ${raw(card)}
          <script type="module" src="${hydrateScriptUrl(proxy)}" data-proxy="${proxy}"></script>
        </body>
      </html>`,
  );
});

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8080), hostname: '127.0.0.1' }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/`);
});
