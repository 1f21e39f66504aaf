import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { ConfiguratorSettings } from '../../src/contracts/configurator-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import type { PollPhase } from '../../src/polls/poll-view.ts';
import { cardEventNames } from '../events/card-event-names.ts';
import { trackingParameterNames, type TrackingParameterName } from '../../src/contracts/tracking.ts';
import { configuratorStyles } from './configurator.styles.ts';
import {
  embedElement,
  embedSnippet,
  narrowMeasureWidth,
  partnerLinkNames,
  reservedSpace,
  type PartnerLinkName,
  type EmbedChoice,
} from './embed-snippet.ts';
import { measureHeight } from './measure-height.ts';
import { checkPageOrigin } from './origin-check.ts';
import { clubsOf, filterChoices, pollChoices, type PollChoice } from './poll-choices.ts';
import { proxyClient } from '../../src/contracts/proxy-client.ts';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';

const phases: readonly PollPhase[] = ['open', 'upcoming', 'closed', 'disclosed', 'cancelled'];
const languages = [
  ['', 'The page’s language'],
  ['en', 'English'],
  ['fr', 'French'],
  ['es', 'Spanish'],
  ['pt', 'Portuguese'],
  ['de', 'German'],
  ['it', 'Italian'],
] as const;
const embeds = [
  ['card', 'Card (script tag)'],
  ['list', 'List of the club’s polls'],
  ['banner', 'Iframe banner'],
] as const;
/** Events kept in the log, newest first. */
const maxLoggedEvents = 50;

interface LoggedEvent {
  readonly at: string;
  readonly type: string;
  readonly detail: string;
}

/**
 * The embed configurator, served by the proxy at `/configurator/`: pick a poll from the proxy's live list, choose
 * the embed and its options, see it live (the widget loaded from this proxy, as the partner's page will), copy the
 * snippet, check the page's origin against the proxy's allowed origins, and watch the events the embed fires.
 * Platform strings are rendered as text only.
 *
 * @summary The partner's embed configurator.
 */
export class FanPollsConfigurator extends LitElement {
  static override styles = configuratorStyles;
  static override properties = {
    settings: { state: true },
    choices: { state: true },
    problem: { state: true },
    filter: { state: true },
    choice: { state: true },
    pageAddress: { state: true },
    events: { state: true },
    copied: { state: true },
    elementCode: { state: true },
  };

  declare settings: ConfiguratorSettings | undefined;
  declare choices: readonly PollChoice[];
  declare problem: string | undefined;
  declare filter: { partnerId: string; phase: PollPhase | ''; search: string };
  declare choice: Omit<EmbedChoice, 'proxyUrl' | 'version' | 'pollId' | 'partnerId'> & { pollId: string };
  declare pageAddress: string;
  declare events: readonly LoggedEvent[];
  declare copied: string | undefined;
  /** The element code a card's snippet preloads, from the pinned build's `version.json`. */
  declare elementCode: readonly string[];
  #preview: { key: string; element: HTMLElement } | undefined;
  /** The choice (heights aside) last measured; the partner's own height, once typed, is kept. */
  #measuredKey: string | undefined;
  #heightTyped = false;

  constructor() {
    super();
    this.choices = [];
    this.elementCode = [];
    this.filter = { partnerId: '', phase: 'open', search: '' };
    this.choice = {
      embed: 'card',
      pollId: '',
      theme: 'light',
      results: 'always',
      lang: '',
      minHeight: 440,
      maxWidth: 480,
      tracking: {},
      current: false,
      links: {},
    };
    this.pageAddress = '';
    this.events = [];
    for (const name of cardEventNames) this.addEventListener(name, this.#logEvent);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  async #load(): Promise<void> {
    try {
      const settings = (await (await fetch('settings.json')).json()) as ConfiguratorSettings;
      const answer = await proxyClient(settings.proxyUrl).call(`${proxyRoutes.polls}?limit=100`, {
        credentials: 'omit',
      });
      const polls = (answer as { data: Poll[] }).data;
      this.choices = pollChoices(polls, Date.now());
      this.settings = settings;
      if (settings.version === undefined) throw new Error('This proxy serves no versioned widget build.');
      // The widget exactly as the partner's page loads it: from this proxy, pinned to its version.
      const base = `${settings.proxyUrl}/widget/v${settings.version}`;
      const [build] = await Promise.all([
        // The element code the card's snippet preloads (its hashed names change with each build).
        fetch(`${base}/version.json`).then(
          (answer) => answer.json() as Promise<{ scriptTagCard?: string[] }>,
        ),
        import(/* @vite-ignore */ `${base}/fan-polls.js`),
        import(/* @vite-ignore */ `${base}/fan-polls-frame.js`),
      ]);
      this.elementCode = (build.scriptTagCard ?? []).filter((file) => file !== 'fan-polls.js');
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
    }
  }

  readonly #logEvent = (event: Event): void => {
    const detail = (event as Event & { detail?: unknown }).detail;
    const entry = {
      at: new Date().toLocaleTimeString(),
      type: event.type,
      detail: JSON.stringify(detail, null, 1),
    };
    this.events = [entry, ...this.events].slice(0, maxLoggedEvents);
  };

  /** A `<select>` of one of the choice's keyword options. */
  #optionSelect<Key extends 'theme' | 'results'>(
    label: string,
    key: Key,
    values: readonly EmbedChoice[Key][],
  ): TemplateResult {
    return html`<label
      >${label}
      <select
        name=${key}
        @change=${(event: Event) => {
          this.#update(key, (event.target as HTMLSelectElement).value as EmbedChoice[Key]);
        }}
      >
        ${values.map((value) => html`<option value=${value} ?selected=${this.choice[key] === value}>${value}</option>`)}
      </select></label
    >`;
  }

  #update<Key extends keyof FanPollsConfigurator['choice']>(
    key: Key,
    value: FanPollsConfigurator['choice'][Key],
  ): void {
    this.choice = { ...this.choice, [key]: value };
    this.copied = undefined;
  }

  #selected(): PollChoice | undefined {
    return this.choices.find((choice) => choice.id === this.choice.pollId);
  }

  protected override updated(): void {
    const choice = this.#embedChoice();
    if (choice) this.#measure(choice);
  }

  /**
   * The reserved heights measured from the preview the partner sees: the card rendered at the embed's width (its
   * `max-width`, else 640 px) and at a phone's, so the pasted snippet keeps exactly the space the card takes.
   */
  #measure(choice: EmbedChoice): void {
    if (this.#heightTyped || choice.embed === 'list') return;
    const { minHeight: _wide, narrowMinHeight: _narrow, ...measured } = choice;
    const key = JSON.stringify(measured);
    if (key === this.#measuredKey) return;
    this.#measuredKey = key;
    const unreserved = { ...choice, minHeight: 0, narrowMinHeight: undefined, maxWidth: 0 };
    const wideWidth = choice.maxWidth > 0 ? choice.maxWidth : 640;
    void Promise.all([
      measureHeight(previewElement(unreserved), wideWidth),
      measureHeight(previewElement(unreserved), narrowMeasureWidth),
    ]).then(([wide, narrow]) => {
      if (this.#measuredKey !== key || this.#heightTyped || wide === undefined) return;
      this.choice = { ...this.choice, minHeight: wide, narrowMinHeight: narrow };
    });
  }

  protected override render(): TemplateResult {
    const settings = this.settings;
    return html`<header>
        <h1>Fan Polls embed configurator</h1>
        <p>
          Pick a poll, choose how it shows, copy the snippet into your page. Everything below runs live
          against this
          proxy${settings ? html` (<code>${settings.proxyUrl}</code>, widget ${settings.version ?? 'unversioned'})` : nothing}.
        </p>
      </header>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      <div class="columns">
        <div class="steps">
          ${this.#renderPollStep()} ${this.#renderEmbedStep()} ${this.#renderOriginStep()}
        </div>
        <div class="results">${this.#renderPreview()} ${this.#renderSnippet()} ${this.#renderEvents()}</div>
      </div>`;
  }

  #renderPollStep(): TemplateResult {
    const shown = filterChoices(this.choices, this.filter);
    return html`<section aria-labelledby="step-poll">
      <h2 id="step-poll">1. The poll</h2>
      <div class="row">
        <label
          >Club
          <select
            name="club"
            @change=${(event: Event) => {
              this.filter = { ...this.filter, partnerId: (event.target as HTMLSelectElement).value };
            }}
          >
            <option value="">Every club</option>
            ${clubsOf(this.choices).map((club) => html`<option value=${club.id}>${club.name}</option>`)}
          </select></label
        >
        <label
          >Phase
          <select
            name="phase"
            @change=${(event: Event) => {
              this.filter = {
                ...this.filter,
                phase: (event.target as HTMLSelectElement).value as PollPhase | '',
              };
            }}
          >
            <option value="">Any phase</option>
            ${phases.map((phase) => html`<option value=${phase} ?selected=${this.filter.phase === phase}>${phase}</option>`)}
          </select></label
        >
        <label
          >Search
          <input
            name="search"
            type="search"
            .value=${this.filter.search}
            @input=${(event: Event) => {
              this.filter = { ...this.filter, search: (event.target as HTMLInputElement).value };
            }}
        /></label>
      </div>
      <fieldset class="polls">
        <legend>${shown.length} of ${this.choices.length} polls</legend>
        ${shown.map(
          (choice) =>
            html`<label class="poll"
              ><input
                type="radio"
                name="poll"
                .value=${choice.id}
                .checked=${choice.id === this.choice.pollId}
                @change=${() => {
                  this.#update('pollId', choice.id);
                }}
              /><span>${choice.question}</span><small>${choice.partnerName} · ${choice.phase}</small></label
            >`,
        )}
      </fieldset>
    </section>`;
  }

  #renderEmbedStep(): TemplateResult {
    const { choice } = this;
    return html`<section aria-labelledby="step-embed">
      <h2 id="step-embed">2. The embed</h2>
      <fieldset class="row">
        <legend>Kind</legend>
        ${embeds.map(
          ([value, text]) =>
            html`<label
              ><input
                type="radio"
                name="embed"
                .value=${value}
                .checked=${choice.embed === value}
                @change=${() => {
                  this.#update('embed', value);
                }}
              />${text}</label
            >`,
        )}
      </fieldset>
      <div class="row">
        ${this.#optionSelect('Theme', 'theme', ['light', 'dark', 'auto'])}
        ${this.#optionSelect('Results', 'results', ['always', 'after-vote', 'after-close'])}
        <label
          >Language
          <select
            name="lang"
            @change=${(event: Event) => {
              this.#update('lang', (event.target as HTMLSelectElement).value);
            }}
          >
            ${languages.map(([code, name]) => html`<option value=${code} ?selected=${choice.lang === code}>${name}</option>`)}
          </select></label
        >
        <label
          >Reserved height (px)
          <input
            name="min-height"
            type="number"
            min="0"
            max="2000"
            .value=${String(choice.minHeight)}
            @input=${(event: Event) => {
              this.#heightTyped = true;
              this.#update('minHeight', clampPixels((event.target as HTMLInputElement).valueAsNumber));
              this.#update('narrowMinHeight', undefined);
            }}
        /></label>
        ${
          choice.narrowMinHeight === undefined
            ? nothing
            : html`<p class="measured" role="status">
                Measured from the preview: ${choice.minHeight} px at its width, ${choice.narrowMinHeight} px
                on a phone (${narrowMeasureWidth} px wide).
              </p>`
        }
        <label
          >Width at most (px, 0: its container's)
          <input
            name="max-width"
            type="number"
            min="0"
            max="4000"
            .value=${String(choice.maxWidth)}
            @input=${(event: Event) => {
              this.#update('maxWidth', clampPixels((event.target as HTMLInputElement).valueAsNumber));
            }}
        /></label>
      </div>
      ${choice.embed === 'list' ? nothing : this.#renderFollowAndLinks()}
      <fieldset class="row">
        <legend>Tracking parameters (into sign-in and every event)</legend>
        ${trackingParameterNames.map(
          (key) =>
            html`<label
              >${key}
              <input
                name=${key}
                maxlength="100"
                .value=${choice.tracking[key] ?? ''}
                @input=${(event: Event) => {
                  this.#setTracking(key, (event.target as HTMLInputElement).value);
                }}
            /></label>`,
        )}
      </fieldset>
    </section>`;
  }

  /** A card or banner: the club's current poll instead of the one picked, and the partner's links after the vote. */
  #renderFollowAndLinks(): TemplateResult {
    const { choice } = this;
    const hints: Record<PartnerLinkName, string> = {
      'next-href': 'https://www.club.example/match-report',
      'next-label': 'What’s next',
      'get-tokens-href': 'https://www.club.example/fan-tokens',
      'verify-href': 'https://explorer.example/address/{address}',
    };
    return html`<fieldset class="row">
        <legend>Which poll</legend>
        <label
          ><input
            type="checkbox"
            name="current"
            .checked=${choice.current === true}
            @change=${(event: Event) => {
              this.#update('current', (event.target as HTMLInputElement).checked);
            }}
          />Always the club’s current poll (it follows as polls open and close)</label
        >
      </fieldset>
      <fieldset class="row">
        <legend>After the vote and the close (https links; the address goes where {address} is)</legend>
        ${partnerLinkNames.map(
          (key) =>
            html`<label
              >${key}
              <input
                name=${key}
                type=${key === 'next-label' ? 'text' : 'url'}
                placeholder=${hints[key]}
                .value=${choice.links?.[key] ?? ''}
                @input=${(event: Event) => {
                  this.#update('links', { ...choice.links, [key]: (event.target as HTMLInputElement).value });
                }}
            /></label>`,
        )}
      </fieldset>`;
  }

  #setTracking(key: TrackingParameterName, value: string): void {
    this.#update('tracking', { ...this.choice.tracking, [key]: value });
  }

  #renderOriginStep(): TemplateResult {
    const settings = this.settings;
    const verdict = checkPageOrigin(
      this.pageAddress,
      settings?.allowedOrigins ?? [],
      settings?.production ?? true,
      settings?.allowsLoopbackOrigins ?? false,
    );
    return html`<section aria-labelledby="step-origin">
      <h2 id="step-origin">3. Your page</h2>
      <label
        >The address of the page you will embed on
        <input
          name="page"
          type="url"
          placeholder="https://www.club.example/match"
          .value=${this.pageAddress}
          @input=${(event: Event) => {
            this.pageAddress = (event.target as HTMLInputElement).value;
          }}
      /></label>
      <div class="verdict" role="status" data-verdict=${verdict.kind}>
        ${
          verdict.kind === 'allowed'
            ? html`<p>
                ✓ <code>${verdict.origin}</code> is allowed by this proxy: the embed will work there.
              </p>`
            : verdict.kind === 'invalid'
              ? html`<p>${verdict.message}</p>`
              : verdict.kind === 'missing'
                ? html`<p>
                      ✗ This proxy does not allow <code>${verdict.origin}</code>: there the card cannot read
                      polls (CORS), sign fans in, nor be framed as a banner (<code>frame-ancestors</code>).
                      Restart the proxy with:
                    </p>
                    <pre><code class="setting">${verdict.setting}</code></pre>
                    ${
                      verdict.needsHttps
                        ? html`<p>
                            In production the page must be on https: <code>${verdict.origin}</code> is not.
                          </p>`
                        : nothing
                    }`
                : html`<p>Allowed now: ${(settings?.allowedOrigins ?? []).join(', ') || 'none'}.</p>`
        }
      </div>
    </section>`;
  }

  #embedChoice(): EmbedChoice | undefined {
    const settings = this.settings;
    const poll = this.#selected();
    if (!settings?.version || !poll) return undefined;
    return {
      ...this.choice,
      proxyUrl: settings.proxyUrl,
      version: settings.version,
      // The same for every phase: each paints from the element code and its data.
      elementCode: this.elementCode,
      pollId: poll.id,
      partnerId: poll.partnerId,
    };
  }

  #renderPreview(): TemplateResult {
    const choice = this.#embedChoice();
    if (!choice)
      return html`<section class="preview">
        <h2>Live preview</h2>
        <p>Pick a poll.</p>
      </section>`;
    // A new element for every change (the banner reads its attributes once, as on a partner's page), with exactly
    // the snippet's attributes and CSS, and this proxy for the script tag's `data-proxy`.
    return html`<section class="preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Live preview</h2>
      <div class="preview-box">${this.#previewFor(choice)}</div>
    </section>`;
  }

  /** The preview's element, the same one while the choice stays the same (re-renders keep it alive). */
  #previewFor(choice: EmbedChoice): HTMLElement {
    const key = JSON.stringify(choice);
    if (this.#preview?.key !== key) this.#preview = { key, element: previewElement(choice) };
    return this.#preview.element;
  }

  #renderSnippet(): TemplateResult | typeof nothing {
    const choice = this.#embedChoice();
    if (!choice) return nothing;
    const snippet = embedSnippet(choice);
    return html`<section aria-labelledby="snippet-title">
      <h2 id="snippet-title">Your snippet</h2>
      ${
        choice.embed === 'card' && !choice.lang
          ? html`<p class="drawn-hint">
              Choose your page's language above: the proxy then draws the card, and it paints before the
              element code arrives.
            </p>`
          : nothing
      }
      <p>In your page's HTML, where the embed goes:</p>
      <pre><code class="snippet-html">${snippet.html}</code></pre>
      <button type="button" @click=${() => void this.#copy('HTML', snippet.html)}>Copy HTML</button>
      <p>In your stylesheet (it keeps the space before the data arrives: no layout shift):</p>
      <pre><code class="snippet-css">${snippet.css}</code></pre>
      <button type="button" @click=${() => void this.#copy('CSS', snippet.css)}>Copy CSS</button>
      <p class="copied" role="status">${this.copied ? `${this.copied} copied.` : ''}</p>
    </section>`;
  }

  async #copy(what: string, text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = what;
    } catch {
      this.copied = undefined;
      this.problem = 'The browser refused the clipboard: select the snippet and copy it by hand.';
    }
  }

  #renderEvents(): TemplateResult {
    return html`<section aria-labelledby="events-title">
      <h2 id="events-title">Events the embed fired</h2>
      <p>
        Click in the preview (sign in, vote): each event is listed here with its <code>detail</code>, as your
        page's listeners get it (<code>addEventListener('fan-poll-voted', ...)</code> on the element or the
        document).
      </p>
      <ol class="events" reversed>
        ${this.events.map(
          (event) =>
            html`<li>
              <span class="event-type">${event.type}</span> <small>${event.at}</small>
              <pre>${event.detail}</pre>
            </li>`,
        )}
      </ol>
    </section>`;
  }
}

/** The embed as the snippet writes it, built with DOM calls (attributes as text, styles through the CSSOM). */
function previewElement(choice: EmbedChoice): HTMLElement {
  const { tag, attributes } = embedElement(choice);
  const element = document.createElement(tag);
  for (const [name, value] of attributes) element.setAttribute(name, value);
  if (choice.embed !== 'banner') element.setAttribute('proxy', choice.proxyUrl);
  if (choice.embed === 'card') element.setAttribute('eager', '');
  for (const [property, value] of reservedSpace(choice)) element.style.setProperty(property, value);
  return element;
}

function clampPixels(value: number): number {
  return Number.isFinite(value) ? Math.min(4000, Math.max(0, Math.round(value))) : 0;
}

declare global {
  interface HTMLElementTagNameMap {
    'fan-polls-configurator': FanPollsConfigurator;
  }
}
