// The stream route where the state has no fan-out (the Workers isolates without the poll streams' object): refused
// with 503 `streams_full` and a `Retry-After`, so the page reads the polls instead; and turned off by a cap of 0.
import { describe, expect, it } from 'vitest';
import { pollStreamPath } from '../../contracts/poll-stream-contract.ts';
import { createProxyApp } from '../app.ts';
import { loadProxyConfig } from '../config.ts';
import { createJsonLogger } from '../logger.ts';
import { memoryProxyState, type ProxyStateFactory } from '../state/proxy-state.ts';

const quiet = createJsonLogger([], () => undefined);
const streamOf = `${pollStreamPath}?ids[]=0b7c3f9e-2d5a-4c1e-9f6b-8a4d2e7c1b30`;

async function refusal(app: ReturnType<typeof createProxyApp>['app']) {
  const answer = await app.request(streamOf);
  const body = (await answer.json()) as { error: { code: string } };
  return { status: answer.status, code: body.error.code, retryAfter: answer.headers.get('retry-after') };
}

describe('the poll stream route', () => {
  it('answers 503 streams_full where the state has no fan-out', async () => {
    const withoutFanOut: ProxyStateFactory = (deps) => {
      const { fanOut: _fanOut, ...state } = memoryProxyState(deps);
      return state;
    };
    const { app } = createProxyApp(loadProxyConfig({ FAN_POLLS_PRESET: 'sandbox' }), {
      logger: quiet,
      state: withoutFanOut,
    });
    expect(await refusal(app)).toEqual({ status: 503, code: 'streams_full', retryAfter: '5' });
  });

  it('answers 503 streams_full when the streams are turned off (a cap of 0)', async () => {
    const config = loadProxyConfig({ FAN_POLLS_PRESET: 'sandbox', FAN_POLLS_STREAMS_PER_INSTANCE: '0' });
    const { app } = createProxyApp(config, { logger: quiet });
    expect(await refusal(app)).toEqual({ status: 503, code: 'streams_full', retryAfter: '5' });
  });
});
