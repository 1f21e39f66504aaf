/** The `fetch` every platform call goes through: injected, so tests route it to the sandbox in-process. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The global fetch, looked up at call time so that a test's replacement of `globalThis.fetch` is honoured. */
export const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * An answer whose body a step on the way already read as text (the proxy's platform guard checks the bodies of 2xx
 * reads): the text is kept here, and the Response itself carries no body (building a second body stream costs a
 * fan's read about 50 µs). Only `readJsonBody` reads such answers.
 */
export interface ResponseWithText extends Response {
  readonly bodyText: string;
}

/** `response`'s status and headers, without a body, with `text` as its `bodyText`. */
export function answerWithText(response: Response, text: string): ResponseWithText {
  const bodiless = new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  return Object.assign(bodiless, { bodyText: text });
}

/** Reads a body as JSON; undefined when it is empty or not JSON (error bodies of unknown shape pass through). */
export async function readJsonBody(response: Response | ResponseWithText): Promise<unknown> {
  const text = 'bodyText' in response ? response.bodyText : await response.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
