import { Agent, request, type Dispatcher } from 'undici';
import type { FetchLike } from '../platform/http.ts';

/** Statuses whose Response may not have a body. */
const bodiless = new Set([101, 103, 204, 205, 304]);

/**
 * The platform calls' `fetch` on Node: undici's `request`, at about a third of the global `fetch`'s CPU a
 * call (`fetch` runs the WHATWG fetch algorithm and web streams for every answer). It keeps the part of `fetch`'s
 * contract the platform client and oauth4webapi rely on: the method, headers, a string, form or byte body
 * (`URLSearchParams` as `application/x-www-form-urlencoded;charset=UTF-8`), redirects never followed, the signal
 * (an abort rejects with its reason, as `fetch` does), a network failure as a `TypeError` whose `cause` carries the
 * socket's code, and a `Response` with the whole body read. No cookies, no cache, no decompression: the platform's
 * API answers JSON to a server.
 */
export function undiciFetch(dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 4000 })): FetchLike {
  return async (input, init) => {
    const target = input instanceof Request ? input : undefined;
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const headers = new Headers(init?.headers ?? target?.headers);
    const body = await bodyOf(
      init?.body ?? (target?.body === null ? undefined : await target?.text()),
      headers,
    );
    const signal = init?.signal ?? target?.signal ?? undefined;
    try {
      const answer = await request(url, {
        dispatcher,
        method: init?.method ?? target?.method ?? 'GET',
        headers: Object.fromEntries(headers),
        ...(body === undefined ? {} : { body }),
        ...(signal === undefined ? {} : { signal }),
      });
      const bytes = await answer.body.arrayBuffer();
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined) continue;
        for (const each of Array.isArray(value) ? value : [value]) answerHeaders.append(name, each);
      }
      return new Response(bodiless.has(answer.statusCode) ? null : bytes, {
        status: answer.statusCode,
        headers: answerHeaders,
      });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
  };
}

/** A fetch body as undici takes it, with the content type `fetch` would give a form. */
async function bodyOf(
  body: BodyInit | null | undefined,
  headers: Headers,
): Promise<string | Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type'))
      headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return body.toString();
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(await new Response(body).arrayBuffer());
}
