import { css } from 'lit';

/**
 * The one look of the extension's own pages (popup, confirmation window, options), so that the fan recognises Fan
 * Polls' windows: the same type, colours, buttons and cards everywhere. Follows the system's light or dark scheme.
 */
export const extensionTheme = css`
  :host {
    --ext-background: #ffffff;
    --ext-surface: #f4f6f9;
    --ext-text: #14171f;
    --ext-muted: #5a6270;
    --ext-border: #d7dce4;
    --ext-accent: #1f55d6;
    --ext-accent-text: #ffffff;
    --ext-danger: #b3261e;
    --ext-warning-surface: #fff4d6;
    color-scheme: light dark;
    display: block;
    box-sizing: border-box;
    background: var(--ext-background);
    color: var(--ext-text);
    font:
      14px/1.45 system-ui,
      -apple-system,
      'Segoe UI',
      sans-serif;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --ext-background: #14171f;
      --ext-surface: #1e2330;
      --ext-text: #eef1f6;
      --ext-muted: #a7afbd;
      --ext-border: #333b4c;
      --ext-accent: #7aa2ff;
      --ext-accent-text: #0b1020;
      --ext-danger: #ff8a80;
      --ext-warning-surface: #3a3116;
    }
  }
  h1 {
    font-size: 17px;
    margin: 0 0 8px;
  }
  h2 {
    font-size: 15px;
    margin: 12px 0 6px;
  }
  p {
    margin: 6px 0;
  }
  .brand {
    display: flex;
    align-items: center;
    gap: 6px;
    font-weight: 700;
  }
  .brand::before {
    content: '';
    width: 14px;
    height: 14px;
    border-radius: 4px;
    background: var(--ext-accent);
  }
  .muted {
    color: var(--ext-muted);
    font-size: 12.5px;
  }
  .card {
    background: var(--ext-surface);
    border: 1px solid var(--ext-border);
    border-radius: 10px;
    padding: 10px 12px;
  }
  .warning {
    background: var(--ext-warning-surface);
    border-radius: 8px;
    padding: 8px 10px;
  }
  .error {
    color: var(--ext-danger);
  }
  button {
    font: inherit;
    border-radius: 8px;
    border: 1px solid var(--ext-border);
    background: var(--ext-background);
    color: var(--ext-text);
    padding: 6px 12px;
    cursor: pointer;
  }
  button.primary {
    background: var(--ext-accent);
    border-color: var(--ext-accent);
    color: var(--ext-accent-text);
    font-weight: 600;
  }
  button:disabled,
  button[aria-disabled='true'] {
    opacity: 0.55;
    cursor: default;
  }
  button:focus-visible,
  input:focus-visible {
    outline: 2px solid var(--ext-accent);
    outline-offset: 2px;
  }
  input[type='text'],
  input[type='search'],
  input:not([type]) {
    font: inherit;
    color: inherit;
    background: var(--ext-background);
    border: 1px solid var(--ext-border);
    border-radius: 6px;
    padding: 5px 8px;
  }
  .actions {
    display: flex;
    gap: 8px;
    margin-top: 12px;
  }
`;
