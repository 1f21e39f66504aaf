import { detectExtension } from './extension-channel.ts';
import { proxyChannel } from './proxy-channel.ts';
import type { VoteChannel } from './vote-channel.ts';

let extension: Promise<VoteChannel | undefined> | undefined;
const proxies = new Map<string, VoteChannel>();

/** The page's way to vote: the extension when it answers the handshake (asked once per page), else the proxy. */
export async function chooseVoteChannel(proxyUrl: string | undefined): Promise<VoteChannel | undefined> {
  extension ??= detectExtension();
  return (await extension) ?? proxyVoteChannel(proxyUrl);
}

/** The proxy channel, usable synchronously (from a click) before the handshake has answered. */
export function proxyVoteChannel(proxyUrl: string | undefined): VoteChannel | undefined {
  if (!proxyUrl) return undefined;
  let channel = proxies.get(proxyUrl);
  if (!channel) proxies.set(proxyUrl, (channel = proxyChannel(proxyUrl)));
  return channel;
}
