import { afterEach, describe, expect, it, vi } from 'vitest';
import { pollIdsToPrefetch, prefetchPolls } from './prefetch.ts';

const a = '00000000-0000-4000-8000-00000000000a';
const b = '00000000-0000-4000-8000-00000000000b';

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function card(id: string, top: number, eager = false): void {
  const element = document.createElement('fan-poll');
  element.setAttribute('poll-id', id);
  if (eager) element.setAttribute('eager', '');
  element.getBoundingClientRect = () => new DOMRect(0, top, 300, 400);
  document.body.append(element);
}

describe('pollIdsToPrefetch', () => {
  it('takes the cards near the viewport and the eager ones, as the cards themselves will read', () => {
    card(a, 100);
    card(b, 2000);
    card('far-but-eager', 5000, true);
    expect(pollIdsToPrefetch(document, 740)).toEqual([a, 'far-but-eager']);
  });
});

describe('prefetchPolls', () => {
  it('starts one batched read of the valid ids, with the live store’s URL, as a crossorigin preload asks', () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ data: [] }));
    const prefetch = prefetchPolls('https://proxy.example', [b, 'not-a-uuid', a]);
    expect(prefetch?.url).toBe(`https://proxy.example/api/polls?ids[]=${a}&ids[]=${b}&limit=2`);
    expect(fetch).toHaveBeenCalledOnce();
    // Fetch's defaults (`same-origin` credentials, no header): what `crossorigin="anonymous"` preloads (no cookie
    // crosses origins).
    const init = fetch.mock.calls[0]![1]!;
    expect(init.credentials).toBeUndefined();
    expect(init.headers).toBeUndefined();
  });

  it('sends nothing without a proxy or without a valid id', () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    expect(prefetchPolls(undefined, [a])).toBeUndefined();
    expect(prefetchPolls('https://proxy.example', ['x'])).toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();
  });
});
