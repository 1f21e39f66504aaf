/**
 * Modules of the first-paint script that lazy parts import, with the exports they import: a part build maps each to
 * the runtime global instead of bundling a second copy (which would also split module state such as the page's proxy
 * URL). The first-paint script shares these exports only (sharing whole modules would keep every export of them in
 * the first paint). The build fails when a part bundles a module of the first-paint script that is not listed here,
 * or imports an export that is not. Paths are relative to the repository.
 */
export const sharedExports = {
  lit: ['html', 'nothing'],
  'src/polls/poll-phase.ts': ['pollTimeline'],
  'widget/events/event-detail.ts': ['cardEventInit'],
  'widget/events/fan-poll-error-event.ts': ['FanPollErrorEvent'],
  'widget/i18n/language.ts': ['resolveLanguage'],
  'widget/runtime/parts.ts': ['registerPart'],
  'widget/store/widget-config.ts': ['readProxyUrl', 'widgetConfig'],
} as const;

export type SharedModulePath = keyof typeof sharedExports;

export const sharedModulePaths = Object.keys(sharedExports) as SharedModulePath[];

/**
 * Stateless modules (constants and pure functions) of the first-paint script that a part bundles its own copy of:
 * sharing one through the table would keep every export of it in the first paint, also those only parts use.
 */
export const copiedStatelessModulePaths = [
  'src/contracts/proxy-contract.ts',
  'src/platform/query.ts',
  'src/polls/poll-ids.ts',
  'src/polls/proxy-polls-url.ts',
  'widget/store/card-polls.ts',
  'widget/messages/shape.ts',
  'widget/tracking/tracking.ts',
] as const;

/** What parts may import from Lit. */
export const sharedLitExports = sharedExports.lit;
