import type { CardRenderer } from './drawn-per-answer.ts';

/**
 * The banner's card drawn with Lit SSR (`renderFanPoll`), loaded on the first page that needs it, so that a proxy or
 * an isolate starts without it. Node's `serve.ts` and the Workers entry give it to the app (the edge build resolves
 * Lit's `node` build, which runs on workerd: `src/edge/vite.edge.ts`).
 */
export const renderFrameCardWithLitSsr: CardRenderer = async (poll, options) => {
  const { renderFanPoll } = await import('../../widget/ssr/render-fan-poll.ts');
  return renderFanPoll(poll, options);
};
