import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from './en.ts';
import { languageChunks, languageRetryMs, resolveLanguage } from './language.ts';

/** An element in Italian that counts the re-renders the language asks for. */
function italianCard() {
  const element = Object.assign(document.createElement('div'), { updates: 0 });
  element.setAttribute('lang', 'it');
  document.body.append(element);
  return Object.assign(element, {
    requestUpdate() {
      element.updates += 1;
    },
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('a language’s chunk', () => {
  it('is asked for again when next needed after it failed to load, and English stands in meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const load = vi.spyOn(languageChunks, 'it').mockRejectedValueOnce(new Error('offline'));
    const card = italianCard();
    expect(resolveLanguage(card)).toEqual({ locale: 'it', strings: en, pending: true });
    await vi.waitFor(() => {
      expect(card.updates).toBe(1);
    });
    // The failure is not kept as the language: English (not a skeleton), and no retry loop right away.
    expect(resolveLanguage(card)).toEqual({ locale: 'it', strings: en });
    expect(load).toHaveBeenCalledTimes(1);

    vi.setSystemTime(Date.now() + languageRetryMs);
    expect(resolveLanguage(card)).toEqual({ locale: 'it', strings: en });
    expect(load).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => {
      expect(card.updates).toBe(2);
    });
    expect(resolveLanguage(card).strings.signIn).toBe('Accedi per votare');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
