import { css } from 'lit';

/** The configurator's layout: the steps on the left, the live preview, snippet and events on the right. */
export const configuratorStyles = css`
  :host {
    display: block;
    font:
      15px/1.45 system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      sans-serif;
    color: #14171f;
    max-width: 1280px;
    margin: 0 auto;
    padding: 16px;
  }
  h1 {
    font-size: 1.5rem;
    margin: 0 0 4px;
  }
  h2 {
    font-size: 1.1rem;
    margin: 0 0 8px;
  }
  .columns {
    display: grid;
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    gap: 24px;
  }
  @media (max-width: 900px) {
    .columns {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  section {
    border: 1px solid #dde1e8;
    border-radius: 10px;
    padding: 12px 16px;
    margin-bottom: 16px;
  }
  fieldset {
    border: 0;
    padding: 0;
    margin: 8px 0;
  }
  legend {
    font-weight: 600;
    margin-bottom: 4px;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 8px 16px;
    align-items: end;
  }
  label {
    display: inline-flex;
    flex-direction: column;
    gap: 2px;
    font-size: 0.9rem;
  }
  .row label:has(input[type='radio']),
  .row label:has(input[type='checkbox']) {
    flex-direction: row;
    align-items: center;
    gap: 6px;
  }
  input,
  select,
  button {
    font: inherit;
    padding: 4px 6px;
  }
  .polls {
    max-height: 320px;
    overflow: auto;
    border: 1px solid #eef0f4;
    border-radius: 6px;
    padding: 4px 8px;
  }
  .poll {
    display: grid;
    grid-template-columns: auto 1fr;
    column-gap: 8px;
    padding: 4px 0;
  }
  .poll small {
    grid-column: 2;
    color: #596070;
  }
  pre {
    background: #f4f5f8;
    border-radius: 6px;
    padding: 8px;
    overflow: auto;
    white-space: pre-wrap;
    word-break: break-all;
    font-size: 0.85rem;
  }
  .verdict[data-verdict='allowed'] {
    color: #166534;
  }
  .verdict[data-verdict='missing'] {
    color: #9a3412;
  }
  .problem {
    color: #9a3412;
    font-weight: 600;
  }
  .preview-box {
    margin: 0 auto;
  }
  .events {
    max-height: 360px;
    overflow: auto;
    padding-left: 24px;
  }
  .event-type {
    font-weight: 600;
    font-family: ui-monospace, monospace;
  }
`;
