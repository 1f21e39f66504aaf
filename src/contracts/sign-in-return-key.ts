/**
 * The fragment keys a card of the page reads in its address after a sign-in without a pop-up (see
 * `sign-in-return.ts`). A module of their own: the card's details chunk, which takes them, carries these strings, and
 * the chunk of the trip itself the rest of that contract.
 */

/** The marker for the page's own cards (`#fan-polls-handoff=<code>`). */
export const cardReturnKey = 'fan-polls-handoff';

/**
 * A banner's pick (JSON `SignInPick`): the banner's frame is often a third-party frame whose storage the browser blocks,
 * so its card adds the pick to its way back (the host page's address), and the host loader hands it on to the frame,
 * in the frame's address under the same key, with the code.
 */
export const framePickKey = 'fan-polls-pick';
