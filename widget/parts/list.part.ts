// Script entry of the `list` part (`fan-polls.list.js`): the body of `<fan-poll-list>`.
import * as list from '../fan-poll-list/list-view.ts';
import { registerPart } from '../runtime/parts.ts';

registerPart('list', list);
