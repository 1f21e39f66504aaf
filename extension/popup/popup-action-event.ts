/** The popup's two paged lists. */
export type PagedList = 'polls' | 'history';

/** What a part of the popup asks of the popup, which holds the state and talks to the background. */
export type PopupAction =
  | { readonly kind: 'connect-site' }
  | { readonly kind: 'disconnect-site'; readonly origin: string }
  | { readonly kind: 'only-voted'; readonly userVoted: boolean }
  | { readonly kind: 'page'; readonly list: PagedList; readonly page: number }
  | { readonly kind: 'search-text'; readonly search: string }
  | { readonly kind: 'search-history' }
  | { readonly kind: 'open-poll'; readonly pollId: string | undefined };

/**
 * A tab's request to the popup. Dispatched synchronously from the fan's click, so that the popup can still ask the
 * browser for a host permission (granted only inside the click).
 */
export class PopupActionEvent extends Event {
  static readonly eventName = 'fan-popup-action';
  readonly detail: PopupAction;

  constructor(detail: PopupAction) {
    super(PopupActionEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'fan-popup-action': PopupActionEvent;
  }
}
