/**
 * `fan-polls/hydrate`: for a bundled app whose server rendered cards with `fan-polls/ssr`. Import it before anything
 * else that imports Lit (Lit's hydration support must run before `lit-element` does), then call `hydrateFanPolls`.
 */
import '../ssr/hydrate-support.ts';
import type { FanPollsOptions } from './define-fan-polls.ts';

/**
 * Hydrates the page's server-rendered cards and defines `<fan-poll>` and `<fan-poll-list>` (as `defineFanPolls`), once
 * the parts those cards' first render reads are loaded. Never rejects; on a server it does nothing.
 */
export async function hydrateFanPolls(options: FanPollsOptions = {}): Promise<void> {
  if (typeof document === 'undefined') return;
  // Imported here, not above: a static import would let the bundler evaluate Lit before the hydration support.
  const [{ prepareServerCards }, { defineFanPolls }] = await Promise.all([
    import('../ssr/hydrate-cards.ts'),
    import('./define-fan-polls.ts'),
  ]);
  await prepareServerCards(document);
  await defineFanPolls(options);
}

export type { FanPollsOptions };
