import { parseArgs } from 'node:util';
import { demoApplication, localPorts } from '../local-defaults.ts';
import { serveSandbox } from './serve.ts';

/** `npm run sandbox`: serves the platform sandbox on loopback and prints how to use it. */
const { values } = parseArgs({
  options: {
    'api-port': { type: 'string', default: String(localPorts.sandboxApi) },
    'auth-port': { type: 'string', default: String(localPorts.sandboxAuth) },
  },
});

const running = await serveSandbox({
  apiPort: parsePort(values['api-port'], '--api-port'),
  authPort: parsePort(values['auth-port'], '--auth-port'),
});

console.log(`Fan Polls platform sandbox
  resource API ({base_url}): ${running.apiUrl}
  OAuth server ({auth_url}): ${running.authUrl}
  demo application: client_id=${demoApplication.clientId} client_secret=${demoApplication.clientSecret} partner_tag=${demoApplication.partnerTag}`);

function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${flag} must be a port number from 0 to 65535, not "${value}".`);
    process.exit(2);
  }
  return port;
}
