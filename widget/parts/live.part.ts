// Script entry of the `live` part (`fan-polls.live.js`): the page's live store, loaded after the first read.
import * as live from '../store/live-proxy-store.ts';
import { registerPart } from '../runtime/parts.ts';

registerPart('live', live);
