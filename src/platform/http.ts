/** The `fetch` every platform call goes through: injected, so tests route it to the sandbox in-process. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The global fetch, looked up at call time so that a test's replacement of `globalThis.fetch` is honoured. */
export const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/** Reads a body as JSON; undefined when it is empty or not JSON (error bodies of unknown shape pass through). */
export async function readJsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
