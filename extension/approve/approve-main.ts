// The approval window: the approval id from the URL, the origin from the background.
import browser from 'webextension-polyfill';
import { BackgroundClient } from '../shared/background-client.ts';
import { FanExtensionApprove } from './fan-extension-approve.ts';

const approve = new FanExtensionApprove();
approve.approvalId = new URLSearchParams(location.search).get('approval') ?? '';
approve.client = new BackgroundClient((message) => browser.runtime.sendMessage(message));
document.body.append(approve);
