// The options page: settings live in the extension's IndexedDB, which content scripts cannot write.
import browser from 'webextension-polyfill';
import { IndexedDbArea } from '../shared/indexeddb-area.ts';
import { settingsItem } from '../shared/settings.ts';
import { FanExtensionOptions } from './fan-extension-options.ts';

const options = new FanExtensionOptions();
options.store = settingsItem(new IndexedDbArea());
options.requestPermissions = (origins) => browser.permissions.request({ origins });
options.brand = browser.runtime.getManifest().name;
document.body.append(options);
