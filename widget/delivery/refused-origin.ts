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
  let check = checks.get(proxyUrl);
  if (!check) {
    check = fetch(proxyUrl + originCheckRoute, { credentials: 'omit', signal: AbortSignal.timeout(10_000) })
      .then(async (response) => (response.ok ? ((await response.json()) as OriginCheck) : undefined))
      .then((answer) => {
        if (answer?.allowed !== false) return undefined;
        const message = originRefusedMessage(answer.origin ?? location.origin, proxyUrl);
        console.error(message);
        return message;
      })
      .catch(() => undefined);
    checks.set(proxyUrl, check);
  }
  return check;
}
