// Script entry of the `voting` part (`fan-polls.voting.js`): registers the module with the page's widget runtime.
import * as voting from '../fan-poll/fan-voting.ts';
import { registerPart } from '../runtime/parts.ts';

registerPart('voting', voting);
