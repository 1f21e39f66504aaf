import { describe, expect, it } from 'vitest';
import { FakeStorageArea } from '../testing/fake-browser.ts';
import { ConnectedSites } from './connected-sites.ts';
import { SiteAccess, type PermissionsLike, type ScriptingLike } from './site-access.ts';
import { SiteConnections } from './site-connections.ts';

/** The browser's registered content scripts and granted host permissions, in memory. */
function fakeBrowser(granted: string[]) {
  const registered = new Map<string, string[]>();
  const permissions = new Set(granted);
  const scripting: ScriptingLike = {
    getRegisteredContentScripts: () => Promise.resolve([...registered.keys()].map((id) => ({ id }))),
    registerContentScripts: (scripts) => {
      for (const script of scripts) registered.set(script.id, script.matches);
      return Promise.resolve();
    },
    unregisterContentScripts: (filter) => {
      for (const id of filter?.ids ?? []) registered.delete(id);
      return Promise.resolve();
    },
  };
  const permissionsApi: PermissionsLike = {
    contains: ({ origins }) => Promise.resolve(origins.every((origin) => permissions.has(origin))),
    remove: ({ origins }) => {
      for (const origin of origins) permissions.delete(origin);
      return Promise.resolve(true);
    },
  };
  return { scripting, permissionsApi, registered, permissions };
}

const shownPoll = '91111111-2222-4333-8444-555555555555';
const shownClub = '5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61';

function setup(granted: string[], patternsNamePorts = false) {
  const browser = fakeBrowser(granted);
  const ended: (string | undefined)[] = [];
  const connections = new SiteConnections(
    new ConnectedSites(new FakeStorageArea()),
    new SiteAccess(
      browser.scripting,
      browser.permissionsApi,
      'content/page-bridge.iife.js',
      patternsNamePorts,
    ),
    () => Promise.resolve(['https://polls.club.example']),
    () => 1,
    {
      // The page shows one card, a list of one club, and words that are not ids.
      displayedBy: () =>
        Promise.resolve({ pollIds: [shownPoll, 'not an id'], partnerIds: [shownClub, '<img>'] }),
      onSiteEnded: (origin) => ended.push(origin),
    },
  );
  return { connections, ended, ...browser };
}

describe('site connections', () => {
  it('connects only a site the browser granted, and runs the page bridge there only', async () => {
    const { connections, registered } = setup(['https://club.example/*']);
    await expect(connections.connect('https://other.example')).rejects.toMatchObject({ code: 'forbidden' });
    expect(registered.size).toBe(0);
    await connections.connect('https://club.example');
    expect([...registered.values()]).toEqual([['https://club.example/*']]);
    expect(await connections.isConnected('https://club.example')).toBe(true);
    expect(await connections.isConnected('https://club.example:8443')).toBe(false);
  });

  it('disconnecting unregisters the bridge and gives the permission back', async () => {
    const { connections, registered, permissions } = setup(['https://club.example/*']);
    await connections.connect('https://club.example');
    await connections.disconnect('https://club.example');
    expect(registered.size).toBe(0);
    expect(permissions.has('https://club.example/*')).toBe(false);
  });

  it('forgets every site when the session ends, keeping the permissions of the extension’s own services', async () => {
    const { connections, registered, permissions } = setup([
      'https://club.example/*',
      'https://polls.club.example/*',
    ]);
    await connections.connect('https://club.example');
    await connections.connect('https://polls.club.example');
    await connections.record('https://club.example', 'reads');
    expect((await connections.list())[0]?.activity).toEqual({ reads: 1, proposals: 0, votes: 0 });
    await connections.forgetAll();
    expect(await connections.list()).toEqual([]);
    expect(registered.size).toBe(0);
    expect([...permissions]).toEqual(['https://polls.club.example/*']);
  });

  it('registers the bridge for the exact origin, port included, where patterns can name one', async () => {
    const { connections, registered } = setup(['http://127.0.0.1/*', 'https://club.example/*'], true);
    await connections.connect('http://127.0.0.1:5173');
    await connections.connect('https://club.example');
    expect([...registered.values()]).toEqual([['http://127.0.0.1:5173/*', 'https://club.example:443/*']]);
  });

  it('hears a site only while it is connected and its permission granted', async () => {
    const { connections, permissions } = setup(['https://club.example/*']);
    await connections.connect('https://club.example');
    expect(await connections.isHeard('https://club.example')).toBe(true);
    permissions.delete('https://club.example/*');
    expect(await connections.isHeard('https://club.example')).toBe(false);
  });

  it('records at connect time the clubs and polls the page displays (ids only)', async () => {
    const { connections } = setup(['https://club.example/*']);
    await connections.connect('https://club.example');
    expect(await connections.site('https://club.example')).toMatchObject({
      clubs: [shownClub],
      shownPollIds: [shownPoll],
    });
  });

  it('ends the open proposals of a site disconnected, and of every site when the session ends', async () => {
    const { connections, ended } = setup(['https://club.example/*']);
    await connections.connect('https://club.example');
    await connections.disconnect('https://club.example');
    await connections.forgetAll();
    expect(ended).toEqual(['https://club.example', undefined]);
  });
});
