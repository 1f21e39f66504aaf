import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
const body = readFileSync(process.env.BARE_BODY_FILE ?? '');
const server = createServer((req, res) => {
  const h: Record<string, string> = {
    'access-control-allow-origin': req.headers.origin ?? '',
    'access-control-expose-headers': 'Age, ETag, Retry-After',
    age: '1',
    'cache-control': 'public, max-age=0, must-revalidate, s-maxage=5',
    'cdn-cache-control': 'public, max-age=5, stale-while-revalidate=30, stale-if-error=600',
    'content-type': 'application/json; charset=utf-8',
    etag: '"abcdefabcdefabcdefabcdefabcdefab"',
    vary: 'Origin',
    'x-content-type-options': 'nosniff',
    'x-request-id': crypto.randomUUID(),
    'Content-Length': String(body.byteLength),
  };
  if (process.env.FEW) { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'Content-Length': String(body.byteLength) }); res.end(body); return; }
  res.writeHead(200, h);
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
console.log('ready');
