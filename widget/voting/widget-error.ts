export const widgetErrorCodes = [
  'load-failed',
  'sign-in-required',
  'sign-in-failed',
  /** Sign-in ended at the platform but this page cannot hold its session: the browser refuses the proxy's cookies here. */
  'cookies-blocked',
  'popup-blocked',
  'not-holder',
  'vote-refused',
  'already-voted',
  'poll-closed',
  'vote-failed',
  /** The vote certainly did not reach the platform (held, throttled, no token, no connection): nothing counted. */
  'vote-not-sent',
  /** The vote may have reached the platform and nothing could say whether it counted. */
  'vote-uncertain',
  /** The fan cancelled the vote in the extension's confirmation window: nothing was sent. */
  'vote-cancelled',
  'extension-failed',
  /**
   * The proxy's shared state (its Redis) is briefly unreachable (the proxy's `state_unavailable`): no sign-in began and
   * no vote was sent; the fan tries again in a moment.
   */
  'voting-unavailable',
] as const;
export type WidgetErrorCode = (typeof widgetErrorCodes)[number];

/**
 * The proxy's code (in its error body and in its sign-in pop-up's message) for its shared state being unreachable,
 * which the card says as `voting-unavailable`.
 */
export const stateUnavailable = 'state_unavailable';

/**
 * The cause of a `cookies-blocked` after which the card's next sign-in click asks the browser for the frame's cookies
 * (`storage-access.ts`): the card's words say so.
 */
export const storageAccessAskable = 'storage-access-askable';

/** The widget's one error type: `code` is what the card branches on, `cause` keeps the original. */
export class WidgetError extends Error {
  override readonly name = 'WidgetError';
  constructor(
    readonly code: WidgetErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
