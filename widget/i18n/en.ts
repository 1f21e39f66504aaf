import type { CardStrings } from './strings.ts';

export const en: CardStrings = {
  loading: 'Loading poll…',
  open: 'Open',
  closesIn: (d) => `Closes in ${d}`,
  votes: (n, plural) => `${n} ${plural === 'one' ? 'vote' : 'votes'}`,
  quorum: (current, required) => `Turnout ${current}: ${required} needed for the result to count`,
  quorumReached: (required) => `Turnout reached the ${required} needed`,
  quorumLegend: 'The bar fills up to the turnout needed.',
  binding: 'The club will follow the result.',
  notBinding: 'The result is advice for the club.',
  signIn: 'Sign in to vote',
  frameTitle: (q) => `Fan poll: ${q}`,
  listEmpty: 'No polls right now.',
  listLabel: 'Fan polls',
};
