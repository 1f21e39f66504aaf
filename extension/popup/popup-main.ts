// The popup page: registers the widget's elements (parts bundled in, nothing fetched later), then creates the popup
// with a client of the background and mounts it.
import browser from 'webextension-polyfill';
import { defineBundledElements } from '../../widget/define-bundled-elements.ts';
import { BackgroundClient } from '../shared/background-client.ts';
import { FanExtensionPopup } from './fan-extension-popup.ts';

defineBundledElements();
const popup = new FanExtensionPopup();
popup.client = new BackgroundClient((message) => browser.runtime.sendMessage(message));
document.body.append(popup);
