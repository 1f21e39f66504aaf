import * as voting from '../fan-poll/fan-voting.ts';
import * as list from '../fan-poll-list/list-view.ts';
import * as fr from '../i18n/fr.ts';
import * as live from '../store/live-proxy-store.ts';
import type { PartLoader, PartModules } from './parts.ts';

const bundled: PartModules = { voting, list, fr, live };

/**
 * Parts bundled into the importing script itself: no chunk, no `import()`, nothing fetched later. For the
 * extension's pages (`define-bundled-elements.ts`), which are not size-constrained and should emit no extra chunk.
 */
export const bundledPartLoader: PartLoader = (name) => Promise.resolve(bundled[name]);
