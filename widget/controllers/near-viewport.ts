/** Cards start loading when they come this close to the viewport (px); the entries prefetch those cards. */
export const nearViewportPx = 300;
