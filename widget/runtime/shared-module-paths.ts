/**
 * Modules of the first-paint script that lazy parts import: a part build maps each to the runtime global instead of
 * bundling a second copy (which would also split module state such as the page's proxy URL). The build fails when a
 * part bundles a module of the first-paint script that is not listed here. Paths are relative to the repository.
 */
export const sharedModulePaths = [
  'lit',
  'src/contracts/proxy-contract.ts',
  'widget/base/fan-element.ts',
  'widget/events/event-detail.ts',
  'widget/events/fan-poll-error-event.ts',
  'widget/fan-poll/fan-action.ts',
  'widget/fan-poll-list/list-attributes.ts',
  'widget/i18n/language.ts',
  'widget/messages/shape.ts',
  'widget/runtime/parts.ts',
  'widget/store/widget-config.ts',
  'widget/tracking/tracking.ts',
] as const;

export type SharedModulePath = (typeof sharedModulePaths)[number];

/**
 * What parts may import from Lit: the first-paint script shares these exports only (sharing the whole namespace would
 * keep every export of Lit in the first paint). The build fails when a part imports any other.
 */
export const sharedLitExports = ['html', 'nothing'] as const;
