import { enPhases } from './en-phases.ts';
import type { CardStrings, PhaseStrings } from './strings.ts';

/** The phases' and results' words in the card's language: a language chunk carries them, English's are in the card. */
export function phaseWords(strings: CardStrings): PhaseStrings {
  return { ...enPhases, ...strings };
}
