// The popup page: registers the widget's elements (parts bundled in, nothing fetched later), then creates the popup
// with a client of the background and the site of the tab it was opened over, and mounts it.
import browser from 'webextension-polyfill';
import { defineBundledElements } from '../../widget/define-bundled-elements.ts';
import { BackgroundClient } from '../shared/background-client.ts';
import { sitePattern } from '../shared/site-origin.ts';
import { activeSite } from './active-site.ts';
import { FanExtensionPopup } from './fan-extension-popup.ts';

void defineBundledElements();
const popup = new FanExtensionPopup();
popup.client = new BackgroundClient((message) => browser.runtime.sendMessage(message));
popup.requestSitePermission = (origin) => browser.permissions.request({ origins: [sitePattern(origin)] });
popup.reloadTab = (tabId) => browser.tabs.reload(tabId);
void activeSite(browser.tabs, location.search).then((site) => {
  popup.site = site;
});
popup.brand = browser.runtime.getManifest().name;
document.body.append(popup);
