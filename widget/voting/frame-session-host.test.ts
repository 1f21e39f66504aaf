// The page's side of the session frame: it hears only its own frame, on the proxy's origin, with the contract's
// shapes; an answer turns back into the proxy client's error, and a forged one from anywhere else is ignored.
import { afterEach, describe, expect, it } from 'vitest';
import { ProxyClientError } from '../../src/contracts/proxy-client.ts';
import { sessionFrameSource } from '../messages/session-frame-messages.ts';
import { messageFrom } from '../test-support/message-from.ts';
import { openFrameSession } from './frame-session-host.ts';

const proxyUrl = 'https://polls.club.example';
const challenge = 'c'.repeat(43);

/** The frame the host added, and a way to post to the page as someone. */
function frameOfPage() {
  const iframe = document.querySelector('iframe');
  if (iframe === null) throw new Error('No session frame');
  const sent: unknown[] = [];
  // The frame's window as the page sees it: what the page posts to it is recorded.
  const frameWindow = {
    postMessage: (message: unknown, origin: string) => sent.push({ message, origin }),
  } as unknown as Window;
  Object.defineProperty(iframe, 'contentWindow', { value: frameWindow });
  const post = (data: unknown, options: { origin?: string; source?: unknown } = {}) => {
    messageFrom(options.source ?? frameWindow, options.origin ?? proxyUrl, data);
  };
  return { iframe, sent, post };
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('the page’s session frame', () => {
  it('is a hidden frame of the proxy’s session page, ready with the frame’s challenge only', async () => {
    let ready = false;
    const opening = openFrameSession(proxyUrl).then((session) => {
      ready = true;
      return session;
    });
    const { iframe, post, sent } = frameOfPage();
    expect(iframe.src).toBe(
      `${proxyUrl}/widget/embed/session.html?origin=${encodeURIComponent(location.origin)}`,
    );
    expect(iframe.hidden).toBe(true);
    const challengeMessage = { source: sessionFrameSource.frame, type: 'challenge', challenge };
    post(challengeMessage, { origin: 'https://evil.example' });
    post(challengeMessage, { source: window });
    post({ ...challengeMessage, challenge: 'short' });
    post({ ...challengeMessage, credential: 'x' });
    await Promise.resolve();
    expect(ready).toBe(false);
    post(challengeMessage);
    const session = await opening;
    expect(session.challenge()).toBe(challenge);

    const read = session.call('/auth/session');
    expect(sent).toEqual([
      {
        message: {
          source: sessionFrameSource.page,
          type: 'call',
          id: 0,
          path: '/auth/session',
          method: 'GET',
        },
        origin: proxyUrl,
      },
    ]);
    const answer = { source: sessionFrameSource.frame, type: 'answer', id: 0 };
    // Forged answers: another origin, another window, a wrong shape. None settles the call.
    post(
      { ...answer, ok: true, body: { signedIn: true, userId: 'evil' } },
      { origin: 'https://evil.example' },
    );
    post({ ...answer, ok: true, body: { signedIn: true, userId: 'evil' } }, { source: window });
    post({ ...answer, ok: 'yes', body: {} });
    post({ ...answer, ok: false, code: 'not_signed_in', status: 401 });
    await expect(read).rejects.toEqual(expect.any(ProxyClientError));
    await expect(read).rejects.toMatchObject({ code: 'not_signed_in', status: 401 });
  });
});
