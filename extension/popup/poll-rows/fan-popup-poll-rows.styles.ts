import { css } from 'lit';

export const pollRowsStyles = css`
  ol.rows {
    list-style: none;
    margin: 8px 0;
    padding: 0;
    display: grid;
    gap: 6px;
  }
  .row {
    width: 100%;
    text-align: left;
    display: grid;
    gap: 2px;
    padding: 8px 10px;
    border-radius: 8px;
    background: var(--ext-surface);
  }
  .row .question {
    font-weight: 600;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
  .badge {
    font-weight: 600;
    color: var(--ext-accent);
  }
  fan-poll {
    --fan-poll-font: inherit;
    --fan-poll-min-height: 0;
    margin-top: 6px;
  }
`;
