import { describe, expect, it } from 'vitest';
import { FakeStorageArea } from '../testing/fake-browser.ts';
import { ApprovedSites } from './approved-sites.ts';
import { PromptLimiter } from './prompt-limiter.ts';
import { SiteApprovals } from './site-approvals.ts';

function setup() {
  const opened: string[] = [];
  const closed: number[] = [];
  const sites = new ApprovedSites(new FakeStorageArea());
  const clock = { now: 0 };
  const approvals = new SiteApprovals(
    sites,
    {
      open: (url) => {
        opened.push(url);
        return Promise.resolve(opened.length);
      },
      close: (windowId) => {
        closed.push(windowId);
        return Promise.resolve();
      },
    },
    new PromptLimiter(3, 600_000, () => clock.now),
    (approvalId) => `chrome-extension://id/approve.html?approval=${approvalId}`,
    () => clock.now,
  );
  const approvalId = () => new URL(opened.at(-1)!).searchParams.get('approval')!;
  return { opened, closed, sites, clock, approvals, approvalId };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('site approvals', () => {
  it('opens one window per site, approves the exact origin, and closes the window', async () => {
    const t = setup();
    const first = t.approvals.request('https://club.example');
    const second = t.approvals.request('https://club.example');
    await flush();
    expect(t.opened).toHaveLength(1);
    expect(t.approvals.details(t.approvalId())).toEqual({ origin: 'https://club.example' });
    await t.approvals.decide(t.approvalId(), true);
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(t.closed).toEqual([1]);
    expect(await t.sites.isApproved('https://club.example')).toBe(true);
    expect(await t.sites.isApproved('https://club.example:8443')).toBe(false);
    expect(await t.approvals.request('https://club.example')).toBe(true);
    expect(t.opened).toHaveLength(1);
  });

  it('treats a closed window as a no, and forgets the request', async () => {
    const t = setup();
    const pending = t.approvals.request('https://club.example');
    await flush();
    const id = t.approvalId();
    t.approvals.windowClosed(1);
    expect(await pending).toBe(false);
    expect(() => t.approvals.details(id)).toThrow(
      expect.objectContaining({ code: 'invalid_request' }) as Error,
    );
    expect(await t.sites.list()).toEqual([]);
  });

  it('rate-limits prompts per site', async () => {
    const t = setup();
    for (let prompt = 0; prompt < 3; prompt += 1) {
      const pending = t.approvals.request('https://spam.example');
      await flush();
      await t.approvals.decide(t.approvalId(), false);
      expect(await pending).toBe(false);
    }
    await expect(t.approvals.request('https://spam.example')).rejects.toMatchObject({ code: 'rate_limited' });
    const other = t.approvals.request('https://club.example');
    await flush();
    expect(t.opened).toHaveLength(4);
    t.approvals.windowClosed(4);
    await other;
    t.clock.now += 600_001;
    void t.approvals.request('https://spam.example');
    await flush();
    expect(t.opened).toHaveLength(5);
  });

  it('opens one window at a time across sites: a page of many origins (frames) cannot bury the fan', async () => {
    const t = setup();
    const first = t.approvals.request('https://club.example');
    await flush();
    const spam = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => t.approvals.request(`https://s${index}.spam.example`)),
    );
    expect(t.opened).toHaveLength(1);
    expect(spam.every((result) => result.status === 'rejected')).toBe(true);
    expect((spam[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'rate_limited' });
    await t.approvals.decide(t.approvalId(), false);
    expect(await first).toBe(false);
    void t.approvals.request('https://other.example');
    await flush();
    expect(t.opened).toHaveLength(2);
  });

  it('revokes a site', async () => {
    const t = setup();
    await t.sites.approve('https://a.example', 1);
    await t.sites.approve('https://b.example', 2);
    expect(await t.sites.revoke('https://a.example')).toEqual([
      { origin: 'https://b.example', approvedAt: 2 },
    ]);
  });
});
