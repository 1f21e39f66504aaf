import { afterEach, describe, expect, it } from 'vitest';
import { drawnCardPath, drawnCardSettings } from '../../src/contracts/drawn-card-contract.ts';
import { embedSnippet } from '../configurator/embed-snippet.ts';
import { preloadedDrawnCards } from './drawn-cards.ts';

const a = '00000000-0000-4000-8000-00000000000a';
const b = '00000000-0000-4000-8000-00000000000b';
const proxy = 'https://polls.club.example';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

function preload(path: string, base = proxy): void {
  const link = document.createElement('link');
  Object.assign(link, { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href: base + path });
  document.head.append(link);
}

function card(id: string, attributes: Record<string, string> = {}): HTMLElement {
  const element = document.createElement('fan-poll');
  element.setAttribute('poll-id', id);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}

describe('preloadedDrawnCards', () => {
  it('takes the cards whose drawn URL the page preloads, exactly, from the card’s own lang and results', () => {
    preload(drawnCardPath(a, { lang: 'fr', results: 'after-vote' }));
    const drawn = card(a, { lang: 'fr', results: 'after-vote' });
    // The same poll in another language, or with the default results: another drawing, not preloaded.
    card(a, { lang: 'de', results: 'after-vote' });
    card(a, { lang: 'fr' });
    expect(preloadedDrawnCards(document, proxy)).toEqual([
      { card: drawn, url: `${proxy}/api/polls/${a}/card?lang=fr&results=after-vote` },
    ]);
  });

  it('leaves a card without a lang of its own, whose language the page decides, to paint as every card does', () => {
    preload(drawnCardPath(a, {}));
    document.documentElement.lang = 'en';
    card(a);
    expect(preloadedDrawnCards(document, proxy)).toEqual([]);
  });

  it('reads from the card’s own proxy first, else the script’s, and never without one', () => {
    preload(drawnCardPath(a, { lang: 'en' }), 'https://other.example');
    preload(drawnCardPath(b, { lang: 'en' }));
    const own = card(a, { lang: 'en', proxy: 'https://other.example/' });
    const fromScript = card(b, { lang: 'en' });
    expect(preloadedDrawnCards(document, proxy).map((each) => each.card)).toEqual([own, fromScript]);
    expect(preloadedDrawnCards(document, undefined).map((each) => each.card)).toEqual([own]);
  });

  it('takes a `current` card by its partner ids as written, and no card that names neither a poll nor `current`', () => {
    const clubs = `${a} ${b}`;
    preload(drawnCardPath(null, { partnerIds: clubs, lang: 'en' }));
    const current = card('', { current: '', 'partner-ids': clubs, lang: 'en' });
    current.removeAttribute('poll-id');
    const neither = card('', { 'partner-ids': clubs, lang: 'en' });
    neither.removeAttribute('poll-id');
    expect(preloadedDrawnCards(document, proxy)).toEqual([
      {
        card: current,
        url: `${proxy}/api/polls/current/card?partnerIds%5B%5D=${a}+${b}&lang=en`,
      },
    ]);
  });

  it('matches the configurator’s snippet for a card in a chosen language', () => {
    const { html } = embedSnippet({
      embed: 'card',
      proxyUrl: proxy,
      version: '0.1.0',
      pollId: a,
      partnerId: '',
      theme: 'dark',
      results: 'after-close',
      lang: 'pt-BR',
      minHeight: 440,
      maxWidth: 0,
      tracking: {},
    });
    document.body.innerHTML = html.replace(/<script[^>]*><\/script>/, '');
    expect(preloadedDrawnCards(document, proxy)).toHaveLength(1);
  });

  it('matches the configurator’s snippet for a `current` card in a chosen language', () => {
    const { html } = embedSnippet({
      embed: 'card',
      proxyUrl: proxy,
      version: '0.1.0',
      pollId: '',
      partnerId: a,
      current: true,
      theme: 'dark',
      results: 'always',
      lang: 'fr',
      minHeight: 440,
      maxWidth: 0,
      tracking: {},
    });
    document.body.innerHTML = html.replace(/<script[^>]*><\/script>/, '');
    expect(preloadedDrawnCards(document, proxy).map((each) => each.url)).toEqual([
      `${proxy}/api/polls/current/card?partnerIds%5B%5D=${a}&lang=fr`,
    ]);
  });
});

describe('the drawn card’s URL', () => {
  it('keeps only known settings, in one order, and reads back what it wrote', () => {
    expect(drawnCardPath(a, { results: 'after-close', lang: 'fr' })).toBe(
      `/api/polls/${a}/card?lang=fr&results=after-close`,
    );
    expect(drawnCardPath(a, { lang: '', results: 'always' })).toBe(`/api/polls/${a}/card`);
    const path = drawnCardPath(a, { lang: 'pt-BR', results: 'after-vote' });
    expect(drawnCardSettings(new URL(path, proxy).searchParams)).toEqual({
      lang: 'pt-BR',
      results: 'after-vote',
    });
    expect(drawnCardSettings(new URLSearchParams('lang=%3Cb%3E&results=sometimes'))).toEqual({
      lang: undefined,
      results: undefined,
    });
  });
});
