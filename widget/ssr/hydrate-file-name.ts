/** The hydrating widget's file in `dist/widget/` (`/widget/v<version>/fan-polls-hydrate.js` on the proxy). */
export const hydrateFileName = 'fan-polls-hydrate.js';
