import { describe, expect, it } from 'vitest';
import { createRouter, noPayload, type Routes } from './router.ts';
import { classifySender } from './sender.ts';
import { parsePollRef } from './payloads.ts';

const runtimeId = 'mkpodpnnmdfbdhcedkibocckbggbgkjd';
const extensionOrigin = `chrome-extension://${runtimeId}`;
const classify = (sender: Parameters<typeof classifySender>[0]) =>
  classifySender(sender, runtimeId, extensionOrigin);
const pollId = '11111111-2222-4333-8444-555555555555';

const popupSender = { id: runtimeId, url: `${extensionOrigin}/popup.html`, origin: extensionOrigin };
const popupInTabSender = {
  ...popupSender,
  tab: { id: 3, index: 0, highlighted: true, active: true, pinned: false, incognito: false },
};
const contentSender = {
  id: runtimeId,
  url: 'https://club.example/match',
  origin: 'https://club.example',
  tab: { id: 7, index: 0, highlighted: true, active: true, pinned: false, incognito: false },
};

function routes(calls: string[]): Routes {
  const handler = (name: string) => (payload: unknown) => {
    calls.push(`${name}:${JSON.stringify(payload ?? null)}`);
    return Promise.resolve(null as never);
  };
  const page = (name: string) => ({
    allow: 'extension-page' as const,
    parse: noPayload,
    handle: handler(name),
  });
  return {
    'session-status': page('session-status'),
    'sign-in': page('sign-in'),
    'sign-out': page('sign-out'),
    'user-polls': page('user-polls') as never,
    'poll-history': page('poll-history') as never,
    'user-poll': { allow: 'extension-page', parse: parsePollRef, handle: handler('user-poll') },
    vote: page('vote') as never,
    sites: page('sites'),
    'connect-site': page('connect-site') as never,
    'disconnect-site': page('disconnect-site') as never,
    'proposal-details': page('proposal-details') as never,
    'proposal-decision': page('proposal-decision') as never,
    bridge: {
      allow: 'content-script',
      parse: (payload) => payload as never,
      handle: handler('bridge'),
    },
  };
}

describe('classifySender', () => {
  it('tells extension pages (even in a tab) from content scripts by origin, not by tab', () => {
    expect(classify(popupSender)).toEqual({ kind: 'extension-page' });
    expect(classify(popupInTabSender)).toEqual({ kind: 'extension-page' });
    expect(classify(contentSender)).toEqual({
      kind: 'content-script',
      frameOrigin: 'https://club.example',
      topOrigin: undefined,
      tabId: 7,
    });
  });

  it('gives a content script the origin of its tab’s top-level page when the browser tells it', () => {
    const framed = { ...contentSender, tab: { ...contentSender.tab, url: 'https://decoy.example/win' } };
    expect(classify(framed)).toMatchObject({
      frameOrigin: 'https://club.example',
      topOrigin: 'https://decoy.example',
    });
  });

  it('works from the URL alone (Firefox sends no origin)', () => {
    const { origin: _origin, ...firefox } = contentSender;
    expect(classify(firefox)).toMatchObject({ kind: 'content-script', frameOrigin: 'https://club.example' });
  });

  it('refuses other extensions, opaque origins, mismatches and frames outside a tab', () => {
    expect(classify({ ...popupSender, id: 'another-extension' })).toEqual({ kind: 'unknown' });
    expect(classify({ ...contentSender, origin: 'null', url: 'about:blank' })).toEqual({ kind: 'unknown' });
    expect(classify({ ...contentSender, origin: 'https://evil.example' })).toEqual({ kind: 'unknown' });
    expect(classify({ id: runtimeId, url: 'https://club.example/', origin: 'https://club.example' })).toEqual(
      { kind: 'unknown' },
    );
    expect(classify({ ...contentSender, url: 'file:///etc/passwd', origin: 'file://' })).toEqual({
      kind: 'unknown',
    });
  });
});

describe('the router', () => {
  it('answers undefined for anything that is not one of its messages', () => {
    const route = createRouter(routes([]), classify);
    for (const message of [
      undefined,
      null,
      'sign-out',
      { type: 'unknown' },
      { type: 'toString' },
      { type: '__proto__' },
    ]) {
      expect(route(message, popupSender)).toBeUndefined();
    }
  });

  it('runs a handler only for the sender kind it allows', async () => {
    const calls: string[] = [];
    const route = createRouter(routes(calls), classify);
    expect(await route({ type: 'sign-out' }, contentSender)).toEqual({
      ok: false,
      error: { code: 'forbidden', message: expect.any(String) as string },
    });
    expect(await route({ type: 'bridge', payload: { type: 'status' } }, popupSender)).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await route({ type: 'sign-out' }, { ...popupSender, id: 'other' })).toMatchObject({
      error: { code: 'forbidden' },
    });
    expect(calls).toEqual([]);
    expect(await route({ type: 'sign-out' }, popupSender)).toEqual({ ok: true, result: null });
    expect(calls).toEqual(['sign-out:null']);
  });

  it('checks the payload shape before the handler runs', async () => {
    const calls: string[] = [];
    const route = createRouter(routes(calls), classify);
    expect(await route({ type: 'user-poll', payload: { pollId: 'nope' } }, popupSender)).toMatchObject({
      error: { code: 'invalid_request' },
    });
    expect(await route({ type: 'sign-out', payload: { extra: 1 } }, popupSender)).toMatchObject({
      error: { code: 'invalid_request' },
    });
    expect(await route({ type: 'user-poll', payload: { pollId } }, popupSender)).toEqual({
      ok: true,
      result: null,
    });
    expect(calls).toEqual([`user-poll:${JSON.stringify({ pollId })}`]);
  });

  it('turns a thrown error into a coded answer without its cause', async () => {
    const failing = {
      ...routes([]),
      sites: {
        allow: 'extension-page' as const,
        parse: noPayload,
        handle: () => Promise.reject(new Error('secret detail CANARY')),
      },
    };
    const reply = await createRouter(failing, classify)({ type: 'sites' }, popupSender);
    expect(reply).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(JSON.stringify(reply)).not.toContain('CANARY');
  });
});
