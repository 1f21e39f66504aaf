import { html, nothing } from 'lit/html.js';
import { pollTimeline } from '../../src/polls/poll-phase.ts';
import { cardEventInit } from '../events/event-detail.ts';
import { FanPollErrorEvent } from '../events/fan-poll-error-event.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { readProxyUrl, widgetConfig } from '../store/widget-config.ts';
import { registerPart } from './parts.ts';
import type { SharedModulePath, sharedExports } from './shared-module-paths.ts';

/** The first-paint script's exports that lazy parts use, by module path (the build maps each import to its entry). */
export const sharedModules: {
  readonly [P in SharedModulePath]: Readonly<Record<(typeof sharedExports)[P][number], unknown>>;
} = {
  lit: { html, nothing },
  'src/polls/poll-phase.ts': { pollTimeline },
  'widget/events/event-detail.ts': { cardEventInit },
  'widget/events/fan-poll-error-event.ts': { FanPollErrorEvent },
  'widget/i18n/language.ts': { resolveLanguage },
  'widget/runtime/parts.ts': { registerPart },
  'widget/store/widget-config.ts': { readProxyUrl, widgetConfig },
};
