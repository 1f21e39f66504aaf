/**
 * A small scripted `fetch` for unit tests of code that talks HTTP: each call is recorded, and answered by the
 * handler (a function of the request) or the next queued answer.
 */
import type { FetchLike } from '../http.ts';

export interface RecordedRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string;
}

export type FakeAnswer = Response | Error | ((request: RecordedRequest) => Response | Promise<Response>);

export interface FakeFetch {
  readonly fetch: FetchLike;
  readonly requests: RecordedRequest[];
  /** Queues answers, used in order; when the queue is empty the fallback answers. */
  answer(...answers: FakeAnswer[]): void;
}

export function createFakeFetch(fallback?: FakeAnswer): FakeFetch {
  const queue: FakeAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const recorded: RecordedRequest = {
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    };
    requests.push(recorded);
    const answer = queue.shift() ?? fallback;
    if (answer === undefined)
      throw new Error(`No fake answer for ${request.method} ${recorded.url.pathname}`);
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer(recorded);
    return answer;
  };
  return { fetch, requests, answer: (...answers) => queue.push(...answers) };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
