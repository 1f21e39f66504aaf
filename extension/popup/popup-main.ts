// The popup page: creates the element with a client of the background, then mounts it.
import browser from 'webextension-polyfill';
import { BackgroundClient } from '../shared/background-client.ts';
import { FanExtensionPopup } from './fan-extension-popup.ts';

const popup = new FanExtensionPopup();
popup.client = new BackgroundClient((message) => browser.runtime.sendMessage(message));
document.body.append(popup);
