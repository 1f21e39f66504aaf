import { parseArgs } from 'node:util';
import { demoApplication, localPorts } from '../local-defaults.ts';
import { sandboxChoices } from './choices.ts';
import { fans } from './data/fans.ts';
import { serveSandbox } from './serve.ts';

/** `npm run sandbox`: serves the platform sandbox on loopback and prints how to use it. */
const { values } = parseArgs({
  options: {
    'api-port': { type: 'string', default: String(localPorts.sandboxApi) },
    'auth-port': { type: 'string', default: String(localPorts.sandboxAuth) },
    'requests-per-minute': { type: 'string', default: String(sandboxChoices.requestsPerMinute) },
    'simulated-votes-per-minute': { type: 'string', default: String(sandboxChoices.simulatedVotesPerMinute) },
    // A proxy's sign-in callback on another port or host, registered beside the demo's (repeatable).
    'redirect-uri': { type: 'string', multiple: true, default: [] },
  },
});

const running = await serveSandbox({
  apiPort: parseCount(values['api-port'], '--api-port', 65_535),
  authPort: parseCount(values['auth-port'], '--auth-port', 65_535),
  requestsPerMinute: parseCount(values['requests-per-minute'], '--requests-per-minute', 1_000_000),
  simulatedVotesPerMinute: parseCount(
    values['simulated-votes-per-minute'],
    '--simulated-votes-per-minute',
    6000,
  ),
  extraRedirectUris: values['redirect-uri'].map(parseRedirectUri),
});

const { clientId, clientSecret, partnerTag } = demoApplication;
console.log(`Fan Polls platform sandbox
  resource API ({base_url}): ${running.apiUrl}
  OAuth server ({auth_url}): ${running.authUrl}
  demo application: client_id=${clientId} client_secret=${clientSecret} partner_tag=${partnerTag}
  redirect URIs of the demo application: ${running.sandbox.state.applications.find(clientId)?.redirectUris.join(' ') ?? ''}
  fans (password "${fans[0]?.password ?? ''}"): ${fans.map((fan) => fan.username).join(', ')}
  control: ${running.apiUrl}/__sandbox/state (see src/sandbox/README.md)

A partner proxy in front of it (the sandbox preset, chosen explicitly):
  FAN_POLLS_PRESET=sandbox FAN_POLLS_PLATFORM_API_URL=${running.apiUrl} FAN_POLLS_PLATFORM_AUTH_URL=${running.authUrl} npm run proxy

Try it:
  TOKEN=$(curl -s -u ${clientId}:${clientSecret} -d grant_type=client_credentials ${running.authUrl}/oauth2/token | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
  curl -s -H "Authorization: Bearer $TOKEN" '${running.apiUrl}/polls/1.0.8/polls?limit=2'
`);

/** A whole number from 0 to `max`, or exit with a message naming the flag. */
function parseCount(value: string, flag: string, max: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > max) {
    console.error(`${flag} must be a whole number from 0 to ${max}, not "${value}".`);
    process.exit(2);
  }
  return number;
}

/** An absolute http(s) URL without a fragment (OAuth 2.0 §3.1.2), or exit with a message naming the flag. */
function parseRedirectUri(value: string): string {
  const url = URL.parse(value);
  if (url === null || !/^https?:$/.test(url.protocol) || url.hash !== '') {
    console.error(`--redirect-uri must be an absolute http(s) URL without a fragment, not "${value}".`);
    process.exit(2);
  }
  return value;
}
