// The confirmation window: the proposal id from the URL; everything shown comes from the background.
import browser from 'webextension-polyfill';
import { BackgroundClient } from '../shared/background-client.ts';
import { FanExtensionConfirm } from './fan-extension-confirm.ts';

const confirm = new FanExtensionConfirm();
confirm.proposalId = new URLSearchParams(location.search).get('proposal') ?? '';
confirm.client = new BackgroundClient((message) => browser.runtime.sendMessage(message));
confirm.brand = browser.runtime.getManifest().name;
document.body.append(confirm);
