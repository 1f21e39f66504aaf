import { css } from 'lit';

/**
 * Styles of the card's details chunk (the fan's vote and its outcome, the account line), adopted beside the card's own
 * styles once the chunk arrives. They use the card's private `--_*` colours.
 */
export const detailStyles = css`
  [part~='answer'][data-chosen] {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 14%, transparent);
    font-weight: 600;
  }
  .tag {
    padding: 1px 8px;
    border-radius: var(--fan-poll-radius, 999px);
    background: var(--_accent);
    color: var(--_accent-text);
    font-size: 12px;
    font-weight: 700;
  }
  .outcome:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .account {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 12px;
    margin-top: 10px;
    color: var(--_muted);
    font-size: 13px;
  }
  /* The two actions wrap together, under the line that says who is signed in on a narrow card. */
  .account-actions {
    display: flex;
    gap: 12px;
  }
  .account button {
    min-width: 44px;
    padding: 0;
    background: none;
    color: var(--_text);
    text-decoration: underline;
    font-size: 13px;
  }
`;
