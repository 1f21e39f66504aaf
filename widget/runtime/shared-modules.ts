import { html, nothing } from 'lit';
import * as proxyContract from '../../src/contracts/proxy-contract.ts';
import * as fanElement from '../base/fan-element.ts';
import * as eventDetail from '../events/event-detail.ts';
import * as errorEvent from '../events/fan-poll-error-event.ts';
import * as fanAction from '../fan-poll/fan-action.ts';
import * as listAttributes from '../fan-poll-list/list-attributes.ts';
import * as language from '../i18n/language.ts';
import * as shape from '../messages/shape.ts';
import * as widgetConfig from '../store/widget-config.ts';
import * as tracking from '../tracking/tracking.ts';
import * as parts from './parts.ts';
import type { SharedModulePath, sharedLitExports } from './shared-module-paths.ts';

const lit: Record<(typeof sharedLitExports)[number], unknown> = { html, nothing };

/** The first-paint script's modules that lazy parts use, by path (the build maps each import to its entry here). */
export const sharedModules: Readonly<Record<SharedModulePath, object>> = {
  lit,
  'src/contracts/proxy-contract.ts': proxyContract,
  'widget/base/fan-element.ts': fanElement,
  'widget/events/event-detail.ts': eventDetail,
  'widget/events/fan-poll-error-event.ts': errorEvent,
  'widget/fan-poll/fan-action.ts': fanAction,
  'widget/fan-poll-list/list-attributes.ts': listAttributes,
  'widget/i18n/language.ts': language,
  'widget/messages/shape.ts': shape,
  'widget/runtime/parts.ts': parts,
  'widget/store/widget-config.ts': widgetConfig,
  'widget/tracking/tracking.ts': tracking,
};
