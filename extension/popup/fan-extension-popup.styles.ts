import { css } from 'lit';
import { extensionTheme } from '../shared/extension-theme.ts';

/** The popup's frame: its size, the header with the session, and the tab buttons; each tab styles itself. */
export const popupStyles = [
  extensionTheme,
  css`
    :host {
      width: 380px;
      min-height: 220px;
      padding: 12px;
    }
    header {
      display: flex;
      justify-content: space-between;
      align-items: center;
      gap: 8px;
    }
    .session {
      margin: 4px 0 10px;
      word-break: break-all;
    }
    nav {
      display: flex;
      gap: 4px;
      margin: 8px 0;
    }
    nav button[aria-pressed='true'] {
      background: var(--ext-surface);
      font-weight: 600;
    }
  `,
];
