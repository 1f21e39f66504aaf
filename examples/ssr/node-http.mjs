// A page rendered by a plain Node server (node:http) with a live poll card in its HTML: `fan-polls/ssr` draws the
// card (declarative shadow DOM) from the poll this server reads from the partner proxy, and the proxy's
// `fan-polls-hydrate.js` makes it live in the browser. Allow this page's origin on the proxy, then:
//   FAN_POLLS_PROXY=http://127.0.0.1:4020 PORT=8080 node node-http.mjs   and open http://127.0.0.1:8080/?poll=POLL_ID
import { createServer } from 'node:http';
import { hydrateScriptUrl, readPoll, renderFanPoll } from 'fan-polls/ssr';

const proxy = process.env.FAN_POLLS_PROXY ?? 'http://127.0.0.1:4020';

/** The card for `pollId`: drawn with its poll, or (the proxy could not be read) left to read it in the browser. */
async function card(pollId) {
  const poll = await readPoll(proxy, pollId).catch(() => undefined);
  return renderFanPoll(poll, { proxy, pollId, lang: 'en', campaign: 'match-report' });
}

const server = createServer((request, response) => {
  const pollId = new URL(request.url ?? '/', 'http://localhost').searchParams.get('poll') ?? '';
  card(pollId).then(
    (markup) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Match report</title></head>
  <body>
    <h1>Late header settles the derby</h1>
    ${markup}
    <script type="module" src="${hydrateScriptUrl(proxy)}" data-proxy="${proxy}"></script>
  </body>
</html>`);
    },
    (error) => {
      console.error(error);
      response.writeHead(500).end();
    },
  );
});

server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${server.address().port}/`);
});
