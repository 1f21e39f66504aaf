import { proxyClient } from '../../src/contracts/proxy-client.ts';
import {
  originCheckRoute,
  originRefusedMessage,
  type OriginCheck,
} from '../../src/contracts/origin-check-contract.ts';

const checks = new Map<string, Promise<string | undefined>>();

/**
 * After a failed read or a banner that may be refused: asks the proxy at `proxyUrl` whether this page's origin is
 * allowed. The developer's message naming the setting when it is not (logged once per proxy), else undefined
 * (allowed, or the proxy cannot say). Once per proxy and page.
 */
export function refusedOrigin(proxyUrl: string): Promise<string | undefined> {
  // The proxy's own pages (the configurator, the banner's page) are always allowed, and a same-origin read carries
  // no Origin for the proxy to judge.
  if (new URL(proxyUrl).origin === location.origin) return Promise.resolve(undefined);
  let check = checks.get(proxyUrl);
  if (!check) {
    check = proxyClient(proxyUrl)
      .call(originCheckRoute, { credentials: 'omit' })
      .then((body) => body as Partial<OriginCheck> | undefined)
      .then((answer) => {
        if (answer?.allowed !== false || typeof answer.origin !== 'string') return undefined;
        const message = originRefusedMessage(answer.origin, proxyUrl);
        console.error(message);
        return message;
      })
      .catch(() => undefined);
    checks.set(proxyUrl, check);
  }
  return check;
}
