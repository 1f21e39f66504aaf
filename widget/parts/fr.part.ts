// Script entry of the `fr` part (`fan-polls.fr.js`): the card's French strings.
import * as french from '../i18n/fr.ts';
import { registerPart } from '../runtime/parts.ts';

registerPart('fr', french);
