import { LitElement } from 'lit';
import { widgetVersion } from './widget-version.ts';

/** The project's base element: carries the version that `safeDefine` compares. */
export class FanElement extends LitElement {
  static readonly fanPollsVersion = widgetVersion;
}
