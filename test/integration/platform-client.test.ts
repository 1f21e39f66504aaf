// The platform client against the sandbox, in-process (fetch routed to app.request) and over real sockets: every
// route, every filter and every error the client maps.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoApplication } from '../../src/local-defaults.ts';
import { PlatformClient, type PlatformClientOptions } from '../../src/platform/client.ts';
import { applicationTokenKeeper } from '../../src/platform/token-keeper.ts';
import type { Poll } from '../../src/platform/types.ts';
import { voteAndConfirm } from '../../src/platform/vote.ts';
import { clubs } from '../../src/sandbox/data/clubs.ts';
import { fans } from '../../src/sandbox/data/fans.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { canaryTokenPrefix } from '../support/canary.ts';
import { platformErrorOf } from '../support/platform-error.ts';
import { demoOAuthClient, sandboxModes, type SandboxUnderTest } from '../support/sandbox-modes.ts';

const sandboxOptions = { simulatedVotesPerMinute: 0, tokenPrefix: canaryTokenPrefix };

const fanByName = (username: string) => fans.find((fan) => fan.username === username)!;
const pollIds = {
  open: seededPollId('riverside-player-of-the-month'),
  northgateOpen: seededPollId('northgate-walkout-song'),
};

describe.each(sandboxModes(sandboxOptions))('PlatformClient against the sandbox (%s)', (_mode, start) => {
  let harness: SandboxUnderTest;
  let appToken: string;

  const userToken = (username: string): string =>
    harness.sandbox.state.tokens.issueUserTokens(demoApplication.clientId, fanByName(username).userId)
      .accessToken;

  const client = (overrides: Partial<PlatformClientOptions> = {}): PlatformClient =>
    new PlatformClient({
      apiUrl: harness.apiUrl,
      allowInsecureRequests: true,
      fetch: harness.fetch,
      tokens: {
        application: () => Promise.resolve(appToken),
        user: () => Promise.resolve(userToken('sam')),
      },
      ...overrides,
    });

  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness.close();
  });
  beforeEach(async () => {
    harness.sandbox.reset();
    // The application token through the real OAuth server (client credentials, raw Basic).
    const oauth = demoOAuthClient(harness);
    appToken = (await oauth.clientCredentials()).accessToken;
  });

  describe('routes', () => {
    it('lists the published polls and parses every one', async () => {
      const polls = await client().listPolls({ limit: 100 });
      expect(polls.length).toBeGreaterThan(5);
      expect(new Set(polls.map((poll) => poll.partnerId))).toEqual(
        new Set(Object.values(clubs).map((club) => club.partnerId)),
      );
      for (const poll of polls) {
        expect(poll.answers.length).toBeGreaterThan(0);
        expect(poll.userVote).toBeUndefined();
      }
    });

    it('reads one poll', async () => {
      const poll = await client().getPoll(pollIds.open);
      expect(poll.id).toBe(pollIds.open);
      expect(poll.question).toBe('Who was our player of the month?');
      expect(Number(poll.quorum)).toBeGreaterThan(0);
    });

    it('reads the fan’s polls, one poll, history, the user; votes and sees the vote', async () => {
      const fan = client();
      const me = await fan.getCurrentUser();
      expect(me.userId).toBe(fanByName('sam').userId);
      const before = await fan.getUserPoll(pollIds.open);
      expect(before.userVote).toBe(false);
      const answerId = before.answers[0]!.id;
      await fan.vote(pollIds.open, answerId);
      const after = await fan.getUserPoll(pollIds.open);
      expect(after.userVote).toBe(true);
      expect(after.answers.find((answer) => answer.id === answerId)?.voteStatus).toBe('pending');
      const voted = await fan.listUserPolls({ userVoted: true, limit: 100 });
      expect(voted.some((poll) => poll.id === pollIds.open && poll.userVote === true)).toBe(true);
      const history = await fan.listUserPollHistory({ limit: 100 });
      expect(history.map((poll) => poll.id)).toContain(pollIds.open);
    });

    it('lists surveys', async () => {
      expect(Array.isArray(await client().listSurveys())).toBe(true);
    });
  });

  describe('filters', () => {
    let all: Poll[];
    beforeEach(async () => {
      all = await client().listPolls({ limit: 100 });
    });
    const ids = (polls: Poll[]) => polls.map((poll) => poll.id).sort();

    it('ids[] and partnerIds[]', async () => {
      const two = [all[0]!.id, all[1]!.id];
      expect(ids(await client().listPolls({ ids: two }))).toEqual([...two].sort());
      const partners: string[] = [clubs.riverside.partnerId, clubs.northgate.partnerId];
      const byPartner = await client().listPolls({ partnerIds: partners, limit: 100 });
      expect(ids(byPartner)).toEqual(ids(all.filter((poll) => partners.includes(poll.partnerId))));
    });

    it('quorumReached and bound', async () => {
      for (const value of [true, false]) {
        expect(ids(await client().listPolls({ quorumReached: value, limit: 100 }))).toEqual(
          ids(all.filter((poll) => poll.isQuorumReached === value)),
        );
        expect(ids(await client().listPolls({ bound: value, limit: 100 }))).toEqual(
          ids(all.filter((poll) => poll.isBound === value)),
        );
      }
    });

    it('date ranges, with and without an offset', async () => {
      const now = harness.sandbox.clock.now();
      const noOffset = new Date(now).toISOString().slice(0, 19);
      const opened = await client().listPolls({ openAt: { to: noOffset }, limit: 100 });
      expect(opened.length).toBeGreaterThan(0);
      expect(opened.every((poll) => Date.parse(poll.openAt!) <= now + 1000)).toBe(true);
      const later = await client().listPolls({
        closeAt: { from: new Date(now).toISOString().slice(0, 19) + 'Z' },
        limit: 100,
      });
      expect(later.every((poll) => Date.parse(poll.closeAt!) >= now - 1000)).toBe(true);
      expect(later.length + opened.length).toBeGreaterThan(later.length);
      for (const field of ['disclosedAt', 'publicationDate'] as const) {
        const ranged = await client().listPolls({
          [field]: { from: '2000-01-01T00:00:00', to: '2100-01-01T00:00:00+00:00' },
          limit: 100,
        });
        expect(ids(ranged)).toEqual(ids(all.filter((poll) => poll[field] !== undefined)));
      }
    });

    it('search, page, limit, orderBy and direction', async () => {
      const found = await client().listPolls({ search: 'player of the month' });
      expect(found.map((poll) => poll.id)).toContain(pollIds.open);
      const firstPage = await client().listPolls({ limit: 2, page: 1, orderBy: 'openAt', direction: 'asc' });
      const secondPage = await client().listPolls({ limit: 2, page: 2, orderBy: 'openAt', direction: 'asc' });
      expect(firstPage).toHaveLength(2);
      expect(secondPage[0]!.id).not.toBe(firstPage[0]!.id);
      const openTimes = [...firstPage, ...secondPage].map((poll) => Date.parse(poll.openAt!));
      expect(openTimes).toEqual([...openTimes].sort((a, b) => a - b));
      const descending = await client().listPolls({ limit: 4, orderBy: 'openAt', direction: 'desc' });
      const descTimes = descending.map((poll) => Date.parse(poll.openAt!));
      expect(descTimes).toEqual([...descTimes].sort((a, b) => b - a));
    });

    it('cursor paging is passed through (a bad cursor is the platform’s bad_request)', async () => {
      expect((await platformErrorOf(client().listPolls({ cursor: 'not-a-cursor' }))).code).toBe(
        'bad_request',
      );
    });

    it('userVoted on the fan’s list', async () => {
      const fan = client();
      await fan.vote(pollIds.open, (await fan.getUserPoll(pollIds.open)).answers[1]!.id);
      const voted = await fan.listUserPolls({ userVoted: true, limit: 100 });
      expect(voted.every((poll) => poll.userVote === true)).toBe(true);
      expect(voted.map((poll) => poll.id)).toContain(pollIds.open);
    });
  });

  describe('errors', () => {
    it('not_found for an unknown poll', async () => {
      const error = await platformErrorOf(client().getPoll('00000000-0000-4000-8000-000000000000'));
      expect(error).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('invalid_token for an unknown, expired or revoked token', async () => {
      const unknown = client({ tokens: { application: () => Promise.resolve(`${canaryTokenPrefix}nope`) } });
      expect(await platformErrorOf(unknown.listPolls())).toMatchObject({
        code: 'invalid_token',
        platformCode: '900901',
      });
      harness.sandbox.clock.advance(2 * 3600_000);
      expect((await platformErrorOf(client().listPolls())).code).toBe('invalid_token');
    });

    it('wrong_token_kind for an application token on a user route', async () => {
      const wrong = client({ tokens: { user: () => Promise.resolve(appToken) } });
      expect(await platformErrorOf(wrong.getCurrentUser())).toMatchObject({
        code: 'wrong_token_kind',
        platformCode: '900905',
      });
    });

    it('missing_credentials when no token reaches the gateway', async () => {
      const none = client({ tokens: { application: () => Promise.resolve('') } });
      expect((await platformErrorOf(none.listPolls())).code).toBe('missing_credentials');
    });

    it('forbidden for an application that is not subscribed', async () => {
      harness.sandbox.state.applications.register({
        clientId: 'unsubscribed',
        clientSecret: 'secret',
        partnerTag: 'x',
        name: 'Unsubscribed',
        redirectUris: [],
        subscribed: false,
      });
      const token = harness.sandbox.state.tokens.issueApplicationToken('unsubscribed').accessToken;
      const unsubscribed = client({ tokens: { application: () => Promise.resolve(token) } });
      expect(await platformErrorOf(unsubscribed.listPolls())).toMatchObject({
        code: 'forbidden',
        platformCode: '900908',
      });
    });

    it('removed_operation for an API version the gateway does not know', async () => {
      const old = client({ versions: { polls: '1.0.0', user: '1.0.0', survey: '1.0.0' } });
      expect(await platformErrorOf(old.listPolls())).toMatchObject({
        code: 'removed_operation',
        status: 404,
      });
    });

    it('vote_refused: a second vote, a non-holder, a closed poll', async () => {
      const fan = client();
      const answerId = (await fan.getUserPoll(pollIds.open)).answers[0]!.id;
      await fan.vote(pollIds.open, answerId);
      expect(await platformErrorOf(fan.vote(pollIds.open, answerId))).toMatchObject({
        code: 'vote_refused',
        status: 409,
      });
      const jo = client({ tokens: { user: () => Promise.resolve(userToken('jo')) } });
      expect(await platformErrorOf(jo.vote(pollIds.open, answerId))).toMatchObject({
        code: 'vote_refused',
        status: 403,
      });
      expect(
        (await platformErrorOf(fan.vote(pollIds.open, '00000000-0000-4000-8000-000000000001'))).code,
      ).toBe('vote_refused');
    });

    it('throttled with the Retry-After instant', async () => {
      harness.sandbox.faults.throttleNext(1, 60);
      const error = await platformErrorOf(client().listPolls());
      expect(error.code).toBe('throttled');
      const expected = harness.sandbox.clock.now() + 60_000;
      expect(Math.abs(error.retryAt!.getTime() - expected)).toBeLessThan(2000);
    });

    it('throttled by the quota itself', async () => {
      const running = harness.sandbox;
      running.throttle.take(demoApplication.clientId);
      for (let i = 0; i < 2000 && running.throttle.take(demoApplication.clientId) === undefined; i += 1) {
        // use up the quota of this minute
      }
      expect((await platformErrorOf(client().listPolls())).code).toBe('throttled');
    });

    it('platform_error on a 5xx, malformed_response on a cut body, network on a dropped connection', async () => {
      harness.sandbox.faults.failNext(1, 503);
      expect((await platformErrorOf(client().listPolls())).code).toBe('platform_error');
      harness.sandbox.faults.malformNext(1);
      expect((await platformErrorOf(client().getPoll(pollIds.open))).code).toBe('malformed_response');
      harness.sandbox.faults.dropNext(1);
      expect((await platformErrorOf(client().listPolls())).code).toBe('network');
    });

    it('timeout when the platform is slower than the timeout', async () => {
      harness.sandbox.faults.setLatency(200);
      try {
        expect((await platformErrorOf(client({ timeoutMs: 20 }).listPolls())).code).toBe('timeout');
      } finally {
        harness.sandbox.faults.setLatency(0);
      }
    });

    it('never puts a token in an error message', async () => {
      const token = userToken('jo');
      const jo = client({
        tokens: { user: () => Promise.resolve(token), application: () => Promise.resolve(token) },
      });
      const errors = await Promise.all([
        platformErrorOf(jo.vote(pollIds.open, '00000000-0000-4000-8000-000000000001')),
        platformErrorOf(client({ tokens: { user: () => Promise.resolve(appToken) } }).getCurrentUser()),
      ]);
      for (const error of errors) expect(error.message).not.toContain(canaryTokenPrefix);
    });
  });

  describe('token keeping and votes in doubt', () => {
    it('gets a fresh application token and retries once when the kept one expired early', async () => {
      const oauth = demoOAuthClient(harness);
      const keeper = applicationTokenKeeper(oauth);
      const kept = client({ tokens: { application: keeper } });
      await kept.listPolls();
      const first = keeper.tokens?.accessToken;
      // The sandbox's clock runs ahead: the token expired there although the keeper's clock says it is fresh.
      harness.sandbox.clock.advance(2 * 3600_000);
      expect((await kept.listPolls()).length).toBeGreaterThan(0);
      expect(keeper.tokens?.accessToken).not.toBe(first);
    });

    it('a vote whose answer was lost is confirmed by re-reading, not sent twice', async () => {
      const fan = client();
      const answerId = (await fan.getUserPoll(pollIds.northgateOpen)).answers[0]!.id;
      // The vote reaches the platform, then the answer is lost (a 503 from the edge after the backend took it
      // cannot be simulated; a drop before it can, and then the re-read shows no vote).
      harness.sandbox.faults.dropNext(1);
      expect((await platformErrorOf(voteAndConfirm(fan, pollIds.northgateOpen, answerId))).code).toBe(
        'network',
      );
      expect((await fan.getUserPoll(pollIds.northgateOpen)).userVote).toBe(false);
      expect(await voteAndConfirm(fan, pollIds.northgateOpen, answerId)).toEqual({ status: 'accepted' });
    });
  });
});
