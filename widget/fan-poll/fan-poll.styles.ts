import { css } from 'lit';

/**
 * The card's styles. Public API: the `--fan-poll-*` custom properties and the `part`s documented on the element.
 * `.card` resets every inherited property (`all: initial`) so the host page's fonts and colours never leak in.
 */
export const cardStyles = css`
  :host {
    display: block;
    --_bg: var(--fan-poll-background, #fff);
    --_text: var(--fan-poll-text, #14171f);
    --_muted: var(--fan-poll-muted, #596070);
    --_border: var(--fan-poll-border, #dde1e8);
    --_track: var(--fan-poll-track, #eef0f4);
    --_accent: var(--fan-poll-accent, #1d4ed8);
    --_accent-text: var(--fan-poll-accent-text, #fff);
    --_lead: var(--fan-poll-leading, var(--_accent));
    --_radius: var(--fan-poll-radius, 12px);
    --_focus: var(--fan-poll-focus, #c2410c);
    --_scheme: light;
  }
  :host([hidden]) {
    display: none;
  }
  :host([theme='dark']) {
    --_bg: var(--fan-poll-background, #151923);
    --_text: var(--fan-poll-text, #eef1f6);
    --_muted: var(--fan-poll-muted, #a9b1c2);
    --_border: var(--fan-poll-border, #323a4a);
    --_track: var(--fan-poll-track, #262d3b);
    --_accent: var(--fan-poll-accent, #8ab4ff);
    --_accent-text: var(--fan-poll-accent-text, #0b1020);
    --_focus: var(--fan-poll-focus, #fdba74);
    --_scheme: dark;
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      --_bg: var(--fan-poll-background, #151923);
      --_text: var(--fan-poll-text, #eef1f6);
      --_muted: var(--fan-poll-muted, #a9b1c2);
      --_border: var(--fan-poll-border, #323a4a);
      --_track: var(--fan-poll-track, #262d3b);
      --_accent: var(--fan-poll-accent, #8ab4ff);
      --_accent-text: var(--fan-poll-accent-text, #0b1020);
      --_focus: var(--fan-poll-focus, #fdba74);
      --_scheme: dark;
    }
  }
  :host([transparent]) {
    --_bg: transparent;
  }
  .card {
    all: initial;
    display: block;
    box-sizing: border-box;
    min-height: var(--fan-poll-min-height, 0);
    padding: 16px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_text);
    /* Native controls (radios, focus) drawn for the card's own theme, not the page's. */
    color-scheme: var(--_scheme);
    font-family: var(--fan-poll-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    font-size: 15px;
    line-height: 1.4;
    text-align: start;
    overflow-wrap: anywhere;
    /* A tap is one deliberate tap: no double-tap zoom to wait for. */
    touch-action: manipulation;
  }
  * {
    box-sizing: border-box;
  }
  header {
    display: flex;
    align-items: center;
    gap: 8px;
    margin-bottom: 8px;
    color: var(--_muted);
    font-size: 13px;
  }
  [part='logo'] {
    width: 28px;
    height: 28px;
    object-fit: contain;
    border-radius: 6px;
  }
  [part='partner'] {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 600;
    color: var(--_text);
  }
  [part~='phase'] {
    flex: none;
    margin-inline-start: auto;
    padding: 2px 8px;
    border-radius: var(--fan-poll-radius, 999px);
    background: var(--_track);
    white-space: nowrap;
  }
  [part~='phase'][data-phase='open'] {
    background: var(--_accent);
    color: var(--_accent-text);
  }
  fieldset {
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  .question {
    display: block;
    padding: 0;
    margin: 0 0 12px;
    font-size: 17px;
    font-weight: 700;
    line-height: 1.3;
  }
  [part~='answer'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px 10px;
    min-height: 48px;
    margin: 0 0 8px;
    padding: 10px 12px;
    border: 2px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.66);
    cursor: default;
  }
  [part~='answer'][data-selectable] {
    cursor: pointer;
  }
  .text {
    flex: 1;
  }
  [data-collapsed] label:nth-of-type(n + 5):not(:has(:checked), [data-chosen]) {
    display: none;
  }
  input {
    margin: 0;
    accent-color: var(--_accent);
    width: 20px;
    height: 20px;
  }
  input:focus-visible,
  button:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  [part~='answer']:has(input:focus-visible) {
    border-color: var(--_focus);
  }
  progress {
    flex-basis: 100%;
    appearance: none;
    display: block;
    width: 100%;
    height: 6px;
    border: 0;
    border-radius: 3px;
    background: var(--_track);
    overflow: hidden;
  }
  progress::-webkit-progress-bar {
    background: var(--_track);
  }
  progress::-webkit-progress-value {
    background: var(--_accent);
    transition: width 0.6s ease;
  }
  progress::-moz-progress-bar {
    background: var(--_accent);
  }
  @media (prefers-reduced-motion: reduce) {
    progress::-webkit-progress-value {
      transition: none;
    }
  }
  [part~='stats'],
  [part~='quorum'],
  [part~='information'],
  [part~='status'] {
    margin: 8px 0 0;
    color: var(--_muted);
    font-size: 13px;
  }
  .legend {
    display: flex;
    flex-wrap: wrap;
    gap: 2px;
    margin-top: 4px;
    font-size: 12px;
  }
  .legend progress {
    height: 4px;
  }
  [part~='actions'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 12px;
    margin-top: 12px;
  }
  button {
    all: initial;
    box-sizing: border-box;
    min-height: 44px;
    padding: 12px 20px;
    border-radius: var(--fan-poll-radius, 999px);
    background: var(--_accent);
    color: var(--_accent-text);
    font: 600 14px/1.2 var(--fan-poll-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    cursor: pointer;
  }
  button[aria-disabled='true'] {
    opacity: 0.6;
    cursor: progress;
  }
  .note {
    color: var(--_muted);
    font-size: 14px;
  }
  .skeleton {
    display: block;
    height: 14px;
    margin: 0 0 10px;
    border-radius: 6px;
    background: var(--_track);
  }
  .skeleton.title {
    height: 20px;
    width: 80%;
    margin-bottom: 14px;
  }
  .skeleton.answer {
    height: 44px;
  }
  .skeleton.short {
    width: 40%;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  /* The phases other than open, the results, the collapse: first paint of every phase (phase-details.ts). */
  .card[data-phase='cancelled'] {
    border-style: dashed;
  }
  .card[data-phase='cancelled'] [part~='answer'] {
    color: var(--_muted);
    text-decoration: line-through;
  }
  [part~='answer'][data-leading] {
    border-color: var(--_lead);
  }
  .outcome {
    margin: 4px 0 0;
    font-weight: 700;
  }
  .show-all {
    display: block;
    margin: 0 0 8px;
    padding-inline: 0;
    background: none;
    color: var(--_text);
    text-decoration: underline;
  }
  .percent {
    font-variant-numeric: tabular-nums;
    font-weight: 700;
  }
`;
