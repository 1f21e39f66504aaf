import { parseArgs } from 'node:util';
import { localPorts } from '../local-defaults.ts';

/** Where `npm start` listens and whether it rebuilds: flags (`npm start -- --proxy-port 5020`), defaults from local-defaults. */
export interface StartOptions {
  readonly sandboxApiPort: number;
  readonly sandboxAuthPort: number;
  readonly proxyPort: number;
  readonly demoPort: number;
  /** Rebuild even when the build is up to date. */
  readonly rebuild: boolean;
}

export class StartOptionError extends Error {
  override readonly name = 'StartOptionError';
}

export const startUsage = `npm start [-- options]
  --sandbox-api-port N   the sandbox's resource API (default ${localPorts.sandboxApi})
  --sandbox-auth-port N  the sandbox's OAuth server (default ${localPorts.sandboxAuth})
  --proxy-port N         the partner proxy (default ${localPorts.proxy})
  --demo-port N          the demo match page (default ${localPorts.demo})
  --rebuild              build again even when dist/ is up to date`;

export function parseStartOptions(args: readonly string[]): StartOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        'sandbox-api-port': { type: 'string', default: String(localPorts.sandboxApi) },
        'sandbox-auth-port': { type: 'string', default: String(localPorts.sandboxAuth) },
        'proxy-port': { type: 'string', default: String(localPorts.proxy) },
        'demo-port': { type: 'string', default: String(localPorts.demo) },
        rebuild: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new StartOptionError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const { values } = parsed;
  return {
    sandboxApiPort: parsePort(values['sandbox-api-port'], '--sandbox-api-port'),
    sandboxAuthPort: parsePort(values['sandbox-auth-port'], '--sandbox-auth-port'),
    proxyPort: parsePort(values['proxy-port'], '--proxy-port'),
    demoPort: parsePort(values['demo-port'], '--demo-port'),
    rebuild: values.rebuild,
  };
}

/** A TCP port from 1 to 65535 (0, a free port, would leave the sandbox unable to register the proxy's callback). */
function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65_535) {
    throw new StartOptionError(`${flag} must be a port from 1 to 65535, not "${value}".`);
  }
  return port;
}
