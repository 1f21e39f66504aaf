import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/sandbox.ts';
import { SandboxClock } from '../../src/sandbox/clock.ts';
import { apiRequest, applicationToken, fanToken } from '../../src/sandbox/test-kit.ts';
import { decommissionedOperations } from '../../src/sandbox/api/decommissioned-operations.ts';
import { findFanByUsername } from '../../src/sandbox/data/fans.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';

const challenge =
  'Bearer realm="WSO2 API Manager", error="invalid_token", error_description="The provided token is invalid"';
const pollId = seededPollId('riverside-away-kit');

const applicationRoutes = [
  '/polls/1.0.8/polls',
  `/polls/1.0.8/poll/${pollId}`,
  '/survey/1.0.0/survey/surveys',
];
const userGetRoutes = [
  `/polls/1.0.8/user/poll/${pollId}`,
  '/polls/1.0.8/user/polls',
  '/polls/1.0.8/user/polls/history',
  '/user/1.0.0/user/me',
];

describe('sandbox resource API: routes and gateway answers', () => {
  it('answers 200 with data on every read route with the right token', async () => {
    const sandbox = createSandbox();
    for (const path of applicationRoutes) {
      const response = await apiRequest(sandbox, path, applicationToken(sandbox));
      expect(response.status, path).toBe(200);
      expect(await response.json(), path).toHaveProperty('data');
    }
    for (const path of userGetRoutes) {
      const response = await apiRequest(sandbox, path, fanToken(sandbox, 'sam'));
      expect(response.status, path).toBe(200);
      expect(await response.json(), path).toHaveProperty('data');
    }
  });

  it('gives the fan id on /user/me and an empty survey list', async () => {
    const sandbox = createSandbox();
    const me = await apiRequest(sandbox, '/user/1.0.0/user/me', fanToken(sandbox, 'kim'));
    expect(await me.json()).toEqual({ data: { userId: findFanByUsername('kim')!.userId } });
    const surveys = await apiRequest(sandbox, '/survey/1.0.0/survey/surveys', applicationToken(sandbox));
    expect(await surveys.json()).toEqual({ data: [] });
  });

  it('answers an unknown API or version with the gateway 404 Not Found, before any token check', async () => {
    const sandbox = createSandbox();
    for (const path of [
      '/polls/1.0.7/polls',
      '/polls/2.0.0/polls',
      '/user/1.0.8/user/me',
      '/survey/9.9.9/survey/surveys',
      '/nope',
      '/',
    ]) {
      const response = await apiRequest(sandbox, path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({
        code: '404',
        type: 'Status report',
        message: 'Not Found',
        description: 'The requested resource is not available.',
      });
    }
  });

  it('answers an unknown path inside a deployed API with 404 No matching resource', async () => {
    const sandbox = createSandbox();
    const response = await apiRequest(sandbox, '/polls/1.0.8/pollz', applicationToken(sandbox));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: '404',
      type: 'Status report',
      message: 'Runtime Error',
      description: 'No matching resource found for given API Request',
    });
  });

  it('answers a method the path does not define with 405', async () => {
    const sandbox = createSandbox();
    const response = await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox), {
      method: 'DELETE',
    });
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({
      code: '405',
      type: 'Status report',
      message: 'Runtime Error',
      description: 'Method not allowed for given API resource',
    });
  });

  it.each(decommissionedOperations)(
    'answers the removed $method $path with $status, never 200',
    async (operation) => {
      const sandbox = createSandbox();
      const response = await apiRequest(sandbox, operation.path, fanToken(sandbox, 'sam'), {
        method: operation.method,
        ...(operation.method === 'POST'
          ? { headers: { 'Content-Type': 'application/json' }, body: '{}' }
          : {}),
      });
      expect(response.status).toBe(operation.status);
      const body = (await response.json()) as { message: string; description: string };
      const expected = {
        'unknown-api': 'The requested resource is not available.',
        'no-matching-resource': 'No matching resource found for given API Request',
        'method-not-allowed': 'Method not allowed for given API resource',
      }[operation.answer];
      expect(body.description).toBe(expected);
    },
  );
});

describe('sandbox resource API: gateway token checks', () => {
  it('answers a missing or non-bearer Authorization with 401 900902 and the Bearer challenge', async () => {
    const sandbox = createSandbox();
    const headerSets: Record<string, string>[] = [
      {},
      { Authorization: 'Basic ZmFuOnBvbGxz' },
      { Authorization: 'Bearer' },
    ];
    for (const headers of headerSets) {
      const response = await sandbox.api.request('/polls/1.0.8/polls', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toBe(challenge);
      expect((await response.json()) as { code: string; message: string }).toMatchObject({
        code: '900902',
        message: 'Missing Credentials',
      });
    }
  });

  it('answers unknown, malformed, expired and revoked tokens with 401 900901', async () => {
    const clock = new SandboxClock();
    clock.freeze();
    const sandbox = createSandbox({ clock });
    const expired = applicationToken(sandbox);
    clock.advance(sandbox.state.lifetimes.applicationTokenSeconds * 1000);
    const revoked = fanToken(sandbox, 'sam');
    sandbox.state.tokens.revoke('fan-polls-demo', revoked);
    for (const token of ['not-a-token', 'a b c', expired, revoked]) {
      const response = await apiRequest(sandbox, '/polls/1.0.8/user/polls', token);
      expect(response.status, token).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toBe(challenge);
      expect(await response.json()).toEqual({
        code: '900901',
        message: 'Invalid Credentials',
        description: 'Invalid Credentials. Make sure you have provided the correct security credentials',
      });
    }
  });

  it('answers an application token on every user route with 401 900905', async () => {
    const sandbox = createSandbox();
    const token = applicationToken(sandbox);
    for (const [path, method] of [
      ...userGetRoutes.map((p) => [p, 'GET']),
      [`/polls/1.0.8/user/poll/${pollId}/vote`, 'POST'],
    ]) {
      const response = await apiRequest(sandbox, path!, token, {
        method: method!,
        ...(method === 'POST'
          ? { headers: { 'Content-Type': 'application/json' }, body: '{"answerId":"x"}' }
          : {}),
      });
      expect(response.status, path).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toBe(challenge);
      const body = (await response.json()) as { code: string; message: string; description: string };
      expect(body.code).toBe('900905');
      expect(body.message).toBe('Incorrect Access Token Type is provided');
      expect(body.description).toMatch(
        /^Access failure for API: \/(polls\/1\.0\.8|user\/1\.0\.0), version: /,
      );
    }
  });

  it('accepts a user token on application routes (WSO2 accepts any valid token of a subscribed app)', async () => {
    const sandbox = createSandbox();
    const response = await apiRequest(sandbox, '/polls/1.0.8/polls', fanToken(sandbox, 'jo'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown>[] };
    expect(body.data[0]).toHaveProperty('type');
    expect(body.data[0]).not.toHaveProperty('userVote');
  });

  it('answers an unsubscribed application with 403 900908', async () => {
    const sandbox = createSandbox({
      applications: [
        {
          clientId: 'lapsed',
          clientSecret: 's',
          partnerTag: 'lapsed',
          name: 'Lapsed',
          redirectUris: [],
          subscribed: false,
        },
      ],
    });
    const response = await apiRequest(sandbox, '/polls/1.0.8/polls', applicationToken(sandbox, 'lapsed'));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      code: '900908',
      message: 'Resource forbidden ',
      description: 'User is NOT authorized to access the Resource. API Subscription validation failed.',
    });
  });
});

describe('sandbox resource API: CORS and static logos', () => {
  it('allows any origin without credentials and answers preflights without a token', async () => {
    const sandbox = createSandbox();
    const preflight = await sandbox.api.request('/polls/1.0.8/user/poll/x/vote', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://club.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(preflight.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    const allowed = preflight.headers.get('Access-Control-Allow-Headers')!.toLowerCase().split(',');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(preflight.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    const error = await sandbox.api.request('/polls/1.0.8/polls', {
      headers: { Origin: 'https://club.example' },
    });
    expect(error.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it('serves every club logo as SVG on the API origin, and 404 for an unknown one', async () => {
    const sandbox = createSandbox();
    const list = await apiRequest(sandbox, '/polls/1.0.8/polls?limit=100', applicationToken(sandbox));
    const urls = new Set(
      ((await list.json()) as { data: { partnerImages: { url: string }[] }[] }).data.flatMap((poll) =>
        poll.partnerImages.map((image) => image.url),
      ),
    );
    expect(urls.size).toBe(3);
    for (const url of urls) {
      const { pathname, search } = new URL(url);
      const logo = await sandbox.api.request(pathname + search);
      expect(logo.status).toBe(200);
      expect(logo.headers.get('Content-Type')).toBe('image/svg+xml');
      expect(await logo.text()).toMatch(/^<svg /);
    }
    expect((await sandbox.api.request('/assets/clubs/nobody.svg')).status).toBe(404);
  });
});
