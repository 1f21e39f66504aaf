import { css } from 'lit';

/**
 * The list's styles: a responsive grid of cards. Public API: `--fan-poll-list-gap`, `--fan-poll-list-min-width`, and
 * the `list` and `item` parts.
 */
export const listStyles = css`
  :host {
    display: block;
  }
  ul {
    all: initial;
    display: grid;
    gap: var(--fan-poll-list-gap, 16px);
    grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--fan-poll-list-min-width, 280px)), 1fr));
  }
  li {
    display: block;
  }
  p {
    all: initial;
    display: block;
    color: var(--fan-poll-muted, #596070);
    font: 14px/1.4 var(--fan-poll-font, system-ui, sans-serif);
  }
`;
