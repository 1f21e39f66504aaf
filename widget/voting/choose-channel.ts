import type { VoteChannel } from './vote-channel.ts';

let extension: Promise<VoteChannel | undefined> | undefined;

/**
 * The page's way to vote: the extension when it answers the handshake (asked once per page), else the proxy. The
 * extension's bridge is a chunk of its own, imported as the first card's voting starts (after its first paint,
 * beside the details chunk): a card that cannot load it votes through the proxy, whose channel (`proxyVoteChannel`)
 * comes with the details chunk, which the voting needs anyway: `proxyChannel` gives it.
 */
export async function chooseVoteChannel(
  proxyChannel: () => Promise<VoteChannel | undefined>,
): Promise<VoteChannel | undefined> {
  extension ??= import('./extension-channel.ts').then(
    ({ detectExtension }) => detectExtension(),
    () => undefined,
  );
  return (await extension) ?? (await proxyChannel());
}
