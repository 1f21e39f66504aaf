import { frameChallengeOf, frameVerifier } from '../../src/contracts/frame-session-contract.ts';
// Test support for the proxy's integration tests: the sandbox and the proxy as real servers on loopback, a counter
// of every request the proxy sends upstream, a recorder of every answer and log line (for the canary checks), a
// one-cookie "browser", and the fan's part of the sign-in driven with plain fetch.
import { undiciFetch } from '../../src/node/undici-fetch.ts';
import { extensionRedirectUri, firefoxExtensionRedirectUri } from '../../src/local-defaults.ts';
import { serveProxy, type RunningProxy } from '../../src/proxy/serve.ts';
import type { ProxyDeps } from '../../src/proxy/app.ts';
import { createJsonLogger, type ProxyLogger } from '../../src/proxy/logger.ts';
import type { ProxyConfig } from '../../src/proxy/config.ts';
import { createAuthorizationRequest } from '../../src/platform/oauth.ts';
import { answerConsent } from '../../src/sandbox/oauth/headless-consent.ts';
import type { SignInResultMessage } from '../../src/contracts/proxy-contract.ts';
import { csrfHeaderName, csrfHeaderValue, proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { canarySecret } from '../support/canary.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';

export const pageOrigin = 'http://127.0.0.1:4999';
export const extensionOrigin = 'chrome-extension://mkpodpnnmdfbdhcedkibocckbggbgkjd';
export const canaryApplication = {
  clientId: 'canary-partner',
  clientSecret: canarySecret,
  partnerTag: 'canary-partner',
  name: 'Canary partner',
  subscribed: true,
};

export interface UpstreamCall {
  readonly method: string;
  readonly url: URL;
  /** `grant_type` of a token request. */
  readonly grant?: string;
  /** The `token` of a revoke request. */
  readonly revoked?: string;
}

export interface Recorded {
  readonly path: string;
  readonly status: number;
  readonly headers: string;
  readonly body: string;
}

export interface Harness extends Omit<SandboxAndProxy, 'upstream'> {
  readonly upstream: UpstreamCall[];
  readonly logLines: string[];
  readonly answers: Recorded[];
  /** Runs before each upstream request is sent (and holds it until done): a test's way to interleave requests. */
  beforeUpstream: ((request: Request) => Promise<void>) | undefined;
  /** Fetch a proxy path (recorded); `origin` sets the Origin header. */
  call(
    path: string,
    init?: RequestInit & { origin?: string | null; cookie?: string },
  ): Promise<Response & { text(): Promise<string> }>;
  /**
   * Another proxy instance on the same sandbox, with the same settings (so the same Redis when `config.redisUrl` is
   * set), the same upstream record and log: a view of this harness whose `proxy` and `call` are the new instance's.
   * `close` of the view stops that instance only. `port`: where it listens (an instance restarted where it was).
   */
  addInstance(port?: number): Promise<Harness>;
}

export async function startHarness(
  config: Partial<ProxyConfig> = {},
  deps: Pick<ProxyDeps, 'now' | 'sessions' | 'renderFrameCard' | 'renderShareImage'> & {
    readonly logger?: ProxyLogger;
  } = {},
): Promise<Harness> {
  const upstream: UpstreamCall[] = [];
  const logLines: string[] = [];
  const answers: Recorded[] = [];
  const hooks: Pick<Harness, 'beforeUpstream'> = { beforeUpstream: undefined };
  const platformFetch = undiciFetch();
  const countingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const form = request.method === 'POST' ? new URLSearchParams(await request.clone().text()) : undefined;
    const grant = form?.get('grant_type') ?? null;
    const revoked = request.url.endsWith('/oauth2/revoke') ? (form?.get('token') ?? null) : null;
    upstream.push({
      method: request.method,
      url: new URL(request.url),
      ...(grant === null ? {} : { grant }),
      ...(revoked === null ? {} : { revoked }),
    });
    await hooks.beforeUpstream?.(request);
    // The caller's own arguments, not the copy: a fetch of a Request built from another signal loses its abort
    // after a garbage collection on Node 20 (nodejs/undici#4068), and the vote's deadline with it. Through the
    // fetch the Node proxy uses (`serve.ts`), so that every test of the proxy runs the production client.
    return platformFetch(input, init);
  };
  const env = {
    FAN_POLLS_PRESET: 'sandbox',
    FAN_POLLS_CLIENT_ID: canaryApplication.clientId,
    FAN_POLLS_CLIENT_SECRET: canarySecret,
    FAN_POLLS_PARTNER_TAG: canaryApplication.partnerTag,
    FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
  };
  const proxyDeps = {
    ...deps,
    fetch: countingFetch,
    logger: deps.logger ?? createJsonLogger([], (_level, line) => logLines.push(line)),
  };
  const stack = await startSandboxAndProxy({
    sandbox: { applications: [{ ...canaryApplication, redirectUris: [] }] },
    proxy: { env, config, deps: proxyDeps },
  });
  const { sandbox, proxy } = stack;
  // The proxy's port is known only now: register its callback with the canary application.
  const redirectUris = [proxy.config.callbackUrl, extensionRedirectUri, firefoxExtensionRedirectUri];
  sandbox.sandbox.state.applications.register({ ...canaryApplication, redirectUris });

  const view = (instance: RunningProxy, close: () => Promise<void>): Harness =>
    Object.defineProperties(
      {
        sandbox,
        proxy: instance,
        upstream,
        logLines,
        answers,
        call: callOn(instance),
        close,
        addInstance,
      },
      {
        beforeUpstream: {
          get: () => hooks.beforeUpstream,
          set: (value: Harness['beforeUpstream']) => {
            hooks.beforeUpstream = value;
          },
        },
      },
    ) as Harness;
  const addInstance = async (port = 0): Promise<Harness> => {
    const instance = await serveProxy({
      port,
      env: {
        ...env,
        FAN_POLLS_PLATFORM_API_URL: sandbox.apiUrl,
        FAN_POLLS_PLATFORM_AUTH_URL: sandbox.authUrl,
      },
      config,
      deps: proxyDeps,
    });
    redirectUris.push(instance.config.callbackUrl);
    sandbox.sandbox.state.applications.register({ ...canaryApplication, redirectUris });
    return view(instance, () => instance.close());
  };

  const callOn = (instance: RunningProxy): Harness['call'] => callAt(instance.url, answers);
  const call = callOn(proxy);
  return Object.assign(hooks, {
    sandbox,
    proxy,
    upstream,
    logLines,
    answers,
    call,
    close: () => stack.close(),
    addInstance,
  });
}

/** Fetches paths of a proxy at `url` as a page of `pageOrigin` would (or `origin`), recording each answer. */
export function callAt(url: string, answers: Recorded[]): Harness['call'] {
  return async (path, init = {}) => {
    const { origin = pageOrigin, cookie, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (origin !== null) headers.set('Origin', origin);
    if (cookie !== undefined) headers.set('Cookie', cookie);
    const response = await fetch(`${url}${path}`, { redirect: 'manual', ...rest, headers });
    const body = await response.text();
    answers.push({ path, status: response.status, headers: JSON.stringify([...response.headers]), body });
    return Object.assign(response, {
      text: () => Promise.resolve(body),
      json: () => Promise.resolve(JSON.parse(body) as unknown),
    });
  };
}

export const fanHeaders = { [csrfHeaderName]: csrfHeaderValue };

/** A fan's vote through the proxy, as the widget sends it: the session cookie, the CSRF header, JSON. */
export function castVote(
  harness: Harness,
  cookie: string,
  pollId: string,
  answerId: string,
): ReturnType<Harness['call']> {
  return harness.call(proxyRoutes.vote(pollId), {
    method: 'POST',
    cookie,
    headers: { ...fanHeaders, 'Content-Type': 'application/json' },
    body: JSON.stringify({ answerId }),
  });
}

/** The `name=value` of the session cookie in a response, if it sets one. */
export function sessionCookieOf(response: Response): string | undefined {
  const line = response.headers.getSetCookie().find((value) => value.startsWith('__Host-fan-polls-session='));
  return line?.split(';', 1)[0];
}

/** The session id inside a session cookie's signed value (`id.signature`), to look the session up in a test. */
export function sessionIdOf(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return value.slice(0, value.lastIndexOf('.'));
}

/** The message the callback page would post, and the origin it would post it to. */
export function callbackResultOf(html: string): { result: SignInResultMessage; openerOrigin: string | null } {
  const match = /<script type="application\/json" id="sign-in-result">([^<]*)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('The callback page has no result block.');
  return JSON.parse(match[1]) as { result: SignInResultMessage; openerOrigin: string | null };
}

/** A whole sign-in as the fan's browser does it; returns the callback answer and the session cookie. */
export async function signIn(
  harness: Pick<Harness, 'call'>,
  options: {
    decision?: 'allow' | 'deny';
    username?: string;
    tracking?: Record<string, string>;
    /** Ask for a handoff code (`handoff=1`), as a card on another site than the proxy does. */
    handoff?: boolean;
    /** With `handoff`: the session frame's challenge (`frame_challenge`), binding the code to its verifier. */
    frameChallenge?: string;
    /** The browser's session cookie already (signing in again over it). */
    cookie?: string;
  } = {},
): Promise<{ page: string; status: number; cookie: string | undefined; loginLocation: string }> {
  const query = new URLSearchParams({
    origin: pageOrigin,
    ...options.tracking,
    ...(options.handoff === true ? { handoff: '1' } : {}),
    ...(options.frameChallenge === undefined ? {} : { frame_challenge: options.frameChallenge }),
  });
  const login = await harness.call(`/auth/login?${query.toString()}`, {
    origin: null,
    ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
  });
  const loginLocation = login.headers.get('location');
  if (login.status !== 302 || loginLocation === null) throw new Error(`Login answered ${login.status}.`);
  const loginCookie = sessionCookieOf(login) ?? options.cookie;
  const outcome = await answerConsent((input, init) => fetch(input, init), loginLocation, {
    decision: options.decision ?? 'allow',
    username: options.username ?? 'sam',
  });
  if (outcome.kind !== 'redirect') throw new Error(`Consent answered a page (${outcome.status}).`);
  const callback = new URL(outcome.location);
  const answer = await harness.call(`${callback.pathname}${callback.search}`, {
    origin: null,
    ...(loginCookie === undefined ? {} : { cookie: loginCookie }),
  });
  return {
    page: await answer.text(),
    status: answer.status,
    cookie: sessionCookieOf(answer) ?? loginCookie,
    loginLocation,
  };
}

/** A code and its verifier for the extension's redirect URI, as its sign-in window gets them from the platform. */
export async function extensionCode(
  harness: Harness,
  redirectUri: string = extensionRedirectUri,
): Promise<{ code: string; codeVerifier: string }> {
  const request = await createAuthorizationRequest({
    authUrl: harness.sandbox.authUrl,
    clientId: canaryApplication.clientId,
    partnerTag: canaryApplication.partnerTag,
    redirectUri,
  });
  const outcome = await answerConsent((input, init) => fetch(input, init), request.url.href, {
    decision: 'allow',
  });
  if (outcome.kind !== 'redirect') throw new Error('no redirect');
  return { code: new URL(outcome.location).searchParams.get('code')!, codeVerifier: request.codeVerifier };
}

/** A session frame's sign-in: its verifier, and the handoff code the pop-up posted, bound to the verifier's challenge. */
export async function frameSignIn(
  harness: Pick<Harness, 'call'>,
): Promise<{ verifier: string; handoff: string }> {
  const verifier = frameVerifier();
  const { page } = await signIn(harness, { handoff: true, frameChallenge: await frameChallengeOf(verifier) });
  const { result } = callbackResultOf(page);
  if (!result.ok || result.handoff === undefined) throw new Error('The sign-in gave no handoff code.');
  return { verifier, handoff: result.handoff };
}
