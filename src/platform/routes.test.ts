import { describe, expect, it } from 'vitest';
import { defaultApiVersions } from './config.ts';
import { PlatformError } from './errors.ts';
import { decommissionedOperations, routePath, routes } from './routes.ts';

describe('the route table', () => {
  it('holds the spec’s literal paths with the configured versions', () => {
    const filled = Object.fromEntries(
      Object.entries(routes).map(([name, route]) => [
        name,
        `${route.method} ${routePath(route, defaultApiVersions, { pollId: '{pollId}' })}`,
      ]),
    );
    expect(filled).toEqual({
      listPolls: 'GET /polls/1.0.8/polls',
      getPoll: 'GET /polls/1.0.8/poll/%7BpollId%7D',
      getUserPoll: 'GET /polls/1.0.8/user/poll/%7BpollId%7D',
      listUserPolls: 'GET /polls/1.0.8/user/polls',
      listUserPollHistory: 'GET /polls/1.0.8/user/polls/history',
      vote: 'POST /polls/1.0.8/user/poll/%7BpollId%7D/vote',
      getCurrentUser: 'GET /user/1.0.0/user/me',
      listSurveys: 'GET /survey/1.0.0/survey/surveys',
    });
  });

  it('gives user routes the user token and marks the spec’s deprecated ones', () => {
    for (const route of Object.values(routes)) {
      expect(route.tokenKind).toBe(route.path.includes('/user/') ? 'user' : 'application');
    }
    const deprecated = Object.entries(routes)
      .filter(([, route]) => route.deprecated)
      .map(([name]) => name);
    expect(deprecated.sort()).toEqual(['getUserPoll', 'listUserPollHistory', 'listUserPolls', 'vote']);
  });

  it('has no callable decommissioned operation but the two the spec also lists as current', () => {
    const callable = new Set(
      Object.values(routes).map((route) => `${route.method} ${route.path.replace(/^\/\w+\/<version>/, '')}`),
    );
    for (const removed of decommissionedOperations) {
      expect(callable.has(`${removed.method} ${removed.path}`)).toBe(removed.alsoCurrent === true);
    }
  });

  it('encodes path parameters and takes other versions', () => {
    expect(routePath(routes.getPoll, { ...defaultApiVersions, polls: '2.0.0' }, { pollId: 'a/b?c' })).toBe(
      '/polls/2.0.0/poll/a%2Fb%3Fc',
    );
    expect(() => routePath(routes.getPoll, defaultApiVersions)).toThrow(PlatformError);
  });
});
