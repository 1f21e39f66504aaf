import { widgetVersion } from '../base/widget-version.ts';

/**
 * The global through which the lazily loaded parts reach the first-paint script's modules (Lit among them). One per
 * version, first copy wins: two copies of the same version share one Lit; another version never touches it.
 */
export const runtimeGlobalName = `fanPolls@${widgetVersion}`;

/** The file of a lazy part, beside the script that loads it. */
export const partFileName = (name: string): string => `fan-polls.${name}.js`;
