import type { FanPoll } from '../fan-poll/fan-poll.ts';
import { resolveLanguage } from '../i18n/language.ts';

/** The iframe page's title once its card shows a poll ("Fan poll: <question>", in the card's language). */
export function frameTitle(card: FanPoll): string {
  const question = card.shadowRoot?.querySelector('.question')?.textContent.trim() ?? '';
  return resolveLanguage(card).strings.frameTitle(question);
}
