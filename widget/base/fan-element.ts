import { LitElement } from 'lit';
import { widgetVersion } from './widget-version.ts';

/**
 * The widget's elements' base: Lit's `LitElement`, as lit.dev documents it, plus the version that `safeDefine`
 * compares when a second copy of the widget meets this one on a page.
 */
export class FanElement extends LitElement {
  static readonly fanPollsVersion = widgetVersion;
}
