// Script entry of the `live` part (`fan-polls.live.js`): the live store's pacing, loaded after the page's first read.
import * as live from '../../src/polls/adaptive-pacer.ts';
import { registerPart } from '../runtime/parts.ts';

registerPart('live', live);
