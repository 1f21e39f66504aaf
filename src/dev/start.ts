import { analyticsPaths } from '../contracts/analytics-contract.ts';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configuratorRoutes, type ConfiguratorSettings } from '../contracts/configurator-contract.ts';
import { demoApplication, localUrl } from '../local-defaults.ts';
import { fans } from '../sandbox/data/fans.ts';
import { serveSandbox } from '../sandbox/serve.ts';
import { ProxyConfigError } from '../proxy/config.ts';
import { serveProxy } from '../proxy/serve.ts';
import { isBuildFresh, recordBuild } from './build-freshness.ts';
import { serveDemo } from './demo-server.ts';
import {
  developmentAnalyticsToken,
  startPresetSummary,
  startProxyEnvironment,
} from './start-proxy-environment.ts';
import { parseStartOptions, StartOptionError, startUsage, type StartOptions } from './start-options.ts';

/**
 * `npm start`: the embedded default. Builds when the sources changed since the last build (or with `--rebuild`),
 * then serves the platform sandbox on its two origins, the partner proxy in front of it holding the demo
 * application's secret (the sandbox preset, chosen here), and the demo match page with live widgets. Ports come
 * from flags (`startUsage`).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const options = readOptions();
buildUnlessFresh(options);

const demoUrl = localUrl(options.demoPort);
const proxyCallback = `${localUrl(options.proxyPort)}/auth/callback`;
const sandbox = await serveSandbox({
  apiPort: options.sandboxApiPort,
  authPort: options.sandboxAuthPort,
  extraRedirectUris: [proxyCallback],
});
const proxyEnvironment = startProxyEnvironment(process.env, sandbox, demoUrl);
const proxy = await serveProxy({ env: proxyEnvironment, port: options.proxyPort }).catch(
  async (error: unknown) => {
    if (!(error instanceof ProxyConfigError)) throw error;
    console.error(error.message);
    await sandbox.close();
    process.exit(2);
  },
);
const demo = await serveDemo({ port: options.demoPort, proxyUrl: proxy.url });
// The version partners pin, as the proxy says it (the configurator reads the same answer).
const { version: widgetVersion } = (await (
  await fetch(proxy.url + configuratorRoutes.settings)
).json()) as ConfiguratorSettings;
const extensionDir = fileURLToPath(new URL('../../dist/extension/', import.meta.url));

console.log(`
Fan Polls is running on the embedded default.

  Demo match page     ${demo.url}/
  Partner proxy       ${proxy.url}
  Proxy preset        ${startPresetSummary(process.env, proxyEnvironment)}
  Embed configurator  ${proxy.url}/configurator/   (pick a poll, preview it, copy the snippet)
  Analytics dashboard ${analyticsLine(proxy.config.analyticsToken)}
  Widget              ${proxy.url}/widget/v${widgetVersion}/fan-polls.js   iframe: ${proxy.url}/widget/v${widgetVersion}/fan-polls-frame.js
  Allowed origins     ${proxy.config.allowedOrigins.join(', ')}
                      (pages there may embed the widget; to add yours:
                       FAN_POLLS_ALLOWED_ORIGINS=${[...proxy.config.allowedOrigins, 'http://localhost:8080'].join(',')} npm start)
  Platform sandbox    resource API ${sandbox.apiUrl}   OAuth ${sandbox.authUrl}
  Demo application    client_id=${demoApplication.clientId}  partner_tag=${demoApplication.partnerTag}
                      (the secret stays in the proxy and the sandbox)
  Extension           load unpacked: ${extensionDir}chrome  (Firefox: ${extensionDir}firefox)
  Sandbox fans        ${fans.map((fan) => `${fan.username} (${fan.displayName})`).join(', ')}
                      password for all: ${fans[0]?.password ?? ''}

Ctrl+C stops everything. Other ports: ${startUsage.split('\n')[0]} (npm start -- --help).`);

/** Where the club's dashboard is and the token it asks for, or why there is none. */
function analyticsLine(token: string | undefined): string {
  if (!proxy.config.analytics) return 'off (FAN_POLLS_ANALYTICS=false)';
  if (token === undefined) return 'none (set FAN_POLLS_ANALYTICS_TOKEN)';
  const shown = token === developmentAnalyticsToken ? token : '(the FAN_POLLS_ANALYTICS_TOKEN you set)';
  return `${proxy.url}${analyticsPaths.analyticsDashboard}   token: ${shown}`;
}

async function stop(): Promise<void> {
  await Promise.allSettled([demo.close(), proxy.close(), sandbox.close()]);
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

function readOptions(): StartOptions {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(startUsage);
    process.exit(0);
  }
  try {
    return parseStartOptions(args);
  } catch (error) {
    if (!(error instanceof StartOptionError)) throw error;
    console.error(`${error.message}\n\n${startUsage}`);
    process.exit(2);
  }
}

/** `npm run build` when dist/ was built from other sources; says which, and how to force it. */
function buildUnlessFresh({ rebuild }: StartOptions): void {
  if (!rebuild && isBuildFresh(root)) {
    console.log('The build in dist/ is up to date with the sources (npm start -- --rebuild builds again).');
    return;
  }
  console.log(rebuild ? 'Building (--rebuild)...' : 'The sources changed since the last build: building...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  recordBuild(root);
}
