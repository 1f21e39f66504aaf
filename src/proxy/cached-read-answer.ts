import { exposedHeaders } from './cors.ts';
import { noSniffHeader } from './every-answer.ts';
import { requestIdHeader } from './operations/access-log.ts';
import { ageOf, ifNoneMatchHits, type CachedAnswer } from './response-cache.ts';

/** The proxy's `Cache-Control` and `CDN-Cache-Control` for the poll reads (`pollCacheHeaders` in `public-routes.ts`). */
export interface PollCacheHeaders {
  readonly 'Cache-Control': string;
  readonly 'CDN-Cache-Control': string;
}

/** What in a cached read's answer depends on the request and the clock. */
export interface CachedReadRequest {
  /** The request's `Origin` when it is on the allowlist (CORS), else undefined. */
  readonly allowedOrigin: string | undefined;
  readonly ifNoneMatch: string | undefined;
  /** This request's id (the access log's; every request has one). */
  readonly requestId: string | undefined;
  readonly now: number;
}

/** A cached read's whole answer: a 200 with the entry's bytes, or a 304 without a body. */
export interface CachedReadAnswer {
  readonly status: 200 | 304;
  /** In the order Node's adapter writes a Response's headers (lower-case names, sorted), `Content-Length` last. */
  readonly headers: Record<string, string>;
  readonly body: Uint8Array<ArrayBuffer> | null;
}

/** What a poll read's body is (a drawn card, answered as a poll read is, is HTML: `drawn-card.ts`). */
const jsonContentType = 'application/json; charset=utf-8';

/** A cached answer's body as bytes and its length, once per cache fill (a refill stores a new entry). */
interface EncodedBody {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly length: string;
}
const encodedBodies = new WeakMap<CachedAnswer, EncodedBody>();
const encoder = new TextEncoder();

function encodedBodyOf(cached: CachedAnswer): EncodedBody {
  let encoded = encodedBodies.get(cached);
  if (encoded === undefined) {
    const bytes = encoder.encode(cached.body);
    encoded = { bytes, length: String(bytes.byteLength) };
    encodedBodies.set(cached, encoded);
  }
  return encoded;
}

const requestIdName = requestIdHeader.toLowerCase();
const noSniffName = noSniffHeader.name.toLowerCase();

/**
 * The one owner of a cached poll read's answer, for both of its writers: the Hono route (`public-routes.ts`, every
 * runtime) and Node's first listener (`cached-read-listener.ts`). The body's bytes and ETag come from the entry, the
 * fixed headers are given, and only this request's id, CORS and `Age` are added: nothing is serialised or computed
 * per request. A plain header object in the order Hono's `Headers` sorts them, so the bytes on the wire are what they
 * were (`test/integration/proxy-cached-read-bytes.test.ts`). `Age` (RFC 9111: whole seconds since the proxy loaded the
 * answer) with `s-maxage` tells a card when the proxy's copy is replaced, so it reads the new one then.
 * A card drawn from a cached read (`drawn-card.ts`) is answered here too, with its `contentType`: the same CORS and
 * caching as the read it was drawn from.
 */
export function cachedReadAnswer(
  cached: CachedAnswer,
  cacheHeaders: PollCacheHeaders,
  request: CachedReadRequest,
  contentType: string = jsonContentType,
): CachedReadAnswer {
  const notModified = ifNoneMatchHits(request.ifNoneMatch, cached.etag);
  const headers: Record<string, string> = {};
  if (request.allowedOrigin !== undefined) {
    headers['access-control-allow-origin'] = request.allowedOrigin;
    headers['access-control-expose-headers'] = exposedHeaders;
  }
  headers.age = ageOf(cached, request.now);
  headers['cache-control'] = cacheHeaders['Cache-Control'];
  headers['cdn-cache-control'] = cacheHeaders['CDN-Cache-Control'];
  if (!notModified) headers['content-type'] = contentType;
  headers.etag = cached.etag;
  headers.vary = 'Origin';
  headers[noSniffName] = noSniffHeader.value;
  if (request.requestId !== undefined) headers[requestIdName] = request.requestId;
  if (notModified) return { status: 304, headers, body: null };
  const body = encodedBodyOf(cached);
  // Named as Node's adapter names it, and last, where it put it.
  headers['Content-Length'] = body.length;
  return { status: 200, headers, body: body.bytes };
}
