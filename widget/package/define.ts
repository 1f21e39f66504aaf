/**
 * `fan-polls/define`: importing it defines `<fan-poll>` and `<fan-poll-list>` (once per page, whichever copy comes
 * first). Each element then needs its `proxy` attribute, or call `defineFanPolls({ proxy })` instead.
 */
import { defineFanPolls } from './define-fan-polls.ts';

void defineFanPolls();
