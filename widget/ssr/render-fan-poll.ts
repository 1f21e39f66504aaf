import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { render } from '@lit-labs/ssr';
import { html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { Poll } from '../../src/platform/types.ts';
import { loadLanguage } from '../i18n/language.ts';
import { readCardPolls } from '../store/card-polls.ts';
import { readProxyUrl } from '../store/widget-config.ts';
import type { RenderFanPollOptions } from './render-options.ts';
import { defineServerCard } from './server-card.ts';
import { serverPollBlock } from './server-poll-data.ts';

/**
 * `<fan-poll>` as HTML for a page a server renders (Lit SSR): the card's markup in a declarative shadow root, drawn
 * with `poll` (what the server read from the proxy's `/api/polls`), and the poll beside it for the browser, where
 * `fan-polls/hydrate` (or the proxy's `fan-polls-hydrate.js`) makes the same element live without drawing it again.
 * Every string of the poll is escaped. Without a poll (or with one that lacks an id, answers or statistics) it renders
 * the card's loading state, which reads the poll in the browser as any card does.
 */
export async function renderFanPoll(poll: Poll | undefined, options: RenderFanPollOptions): Promise<string> {
  const proxy = readProxyUrl(options.proxy);
  if (!proxy) throw new TypeError(`Fan Polls: "${options.proxy}" is not an http(s) URL of a partner proxy.`);
  const checked = poll ? readCardPolls({ data: poll })[0] : undefined;
  const lang = options.lang ?? 'en';
  const pollId = checked?.id ?? poll?.id ?? options.pollId ?? '';
  await Promise.all([defineServerCard(), loadLanguage(lang)]);
  const optional = (value: string | undefined): string | typeof nothing => value ?? nothing;
  const { referrer, campaign, param1, param2, param3 } = options;
  const card = html`<fan-poll
    poll-id=${options.currentOf === undefined ? pollId : nothing}
    .pollId=${pollId}
    ?current=${options.currentOf !== undefined}
    partner-ids=${optional(options.currentOf)}
    proxy=${proxy}
    lang=${lang}
    theme=${optional(options.theme)}
    ?transparent=${options.transparent}
    ?eager=${options.eager}
    results=${optional(options.results)}
    referrer=${optional(referrer)}
    campaign=${optional(campaign)}
    param1=${optional(param1)}
    param2=${optional(param2)}
    param3=${optional(param3)}
    .serverPoll=${checked}
    >${checked ? unsafeHTML(serverPollBlock(checked)) : nothing}</fan-poll
  >`;
  return withoutFalseProperties(await collectResult(render(card)));
}

/**
 * Lit SSR writes a property binding of an attribute-reflected property as that attribute whatever its value: the
 * card's `.checked=${false}` becomes `checked="false"`, which HTML reads as checked. Such attributes go; hydration sets
 * the property itself. Every string of the poll is escaped (a double quote becomes an entity), so only markup can match.
 */
function withoutFalseProperties(markup: string): string {
  return markup.replace(/ (checked|disabled|selected)="(false|undefined)"/g, '');
}
