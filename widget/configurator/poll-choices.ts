import type { Poll } from '../../src/platform/types.ts';
import { viewPoll, type PollPhase } from '../../src/polls/poll-view.ts';

/** A poll as the configurator lists it. */
export interface PollChoice {
  readonly id: string;
  readonly partnerId: string;
  readonly partnerName: string;
  readonly question: string;
  readonly phase: PollPhase;
}

export interface PollFilter {
  /** A club's `partnerId`; empty: every club. */
  readonly partnerId: string;
  /** Empty: every phase. */
  readonly phase: PollPhase | '';
  /** Part of the question or the club's name, any case. */
  readonly search: string;
}

/** The proxy's polls as choices, with the phase they are in at `now`. */
export function pollChoices(polls: readonly Poll[], now: number): PollChoice[] {
  return polls.map((poll) => ({
    id: poll.id,
    partnerId: poll.partnerId,
    partnerName: poll.partnerName,
    question: poll.question,
    phase: viewPoll(poll, now).phase,
  }));
}

/** The clubs among `choices`, by name. */
export function clubsOf(choices: readonly PollChoice[]): { id: string; name: string }[] {
  const clubs = new Map(choices.map((choice) => [choice.partnerId, choice.partnerName]));
  return [...clubs].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The choices the filter keeps, in the proxy's order. */
export function filterChoices(choices: readonly PollChoice[], filter: PollFilter): PollChoice[] {
  const search = filter.search.trim().toLowerCase();
  return choices.filter(
    (choice) =>
      (filter.partnerId === '' || choice.partnerId === filter.partnerId) &&
      (filter.phase === '' || choice.phase === filter.phase) &&
      (search === '' || `${choice.question} ${choice.partnerName}`.toLowerCase().includes(search)),
  );
}
