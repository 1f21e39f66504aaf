import { proxyChannel } from './proxy-channel.ts';
import type { VoteChannel } from './vote-channel.ts';

let extension: Promise<VoteChannel | undefined> | undefined;
const proxies = new Map<string, VoteChannel>();

/**
 * The page's way to vote: the extension when it answers the handshake (asked once per page), else the proxy. The
 * extension's bridge is a chunk of its own, imported as the first card's voting starts (after its first paint,
 * beside the details chunk): a card that cannot load it votes through the proxy.
 */
export async function chooseVoteChannel(proxyUrl: string | undefined): Promise<VoteChannel | undefined> {
  extension ??= import('./extension-channel.ts').then(
    ({ detectExtension }) => detectExtension(),
    () => undefined,
  );
  return (await extension) ?? proxyVoteChannel(proxyUrl);
}

/** The proxy channel, usable synchronously (from a click) before the handshake has answered. */
export function proxyVoteChannel(proxyUrl: string | undefined): VoteChannel | undefined {
  if (!proxyUrl) return undefined;
  let channel = proxies.get(proxyUrl);
  if (!channel) proxies.set(proxyUrl, (channel = proxyChannel(proxyUrl)));
  return channel;
}
