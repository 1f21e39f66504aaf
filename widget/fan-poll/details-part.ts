import { lazyPart } from '../base/lazy-part.ts';

/** The card's details chunk (`card-details.ts`), shared by the card and its voting. */
export const cardDetails = lazyPart(() => import('./card-details.ts'));

export type CardDetails = Awaited<ReturnType<typeof cardDetails.load>>;
