import { fileURLToPath } from 'node:url';
import { configuratorRoutes, type ConfiguratorSettings } from '../contracts/configurator-contract.ts';
import { demoApplication, localPorts } from '../local-defaults.ts';
import { fans } from '../sandbox/data/fans.ts';
import { serveSandbox } from '../sandbox/serve.ts';
import { serveProxy } from '../proxy/serve.ts';
import { serveDemo } from './demo-server.ts';

/**
 * `npm start` (after `npm run build`): the embedded default. The platform sandbox on its two origins, the partner
 * proxy in front of it holding the demo application's secret, and the demo match page with live widgets.
 */
const sandbox = await serveSandbox();
const proxy = await serveProxy({
  env: {
    ...process.env,
    FAN_POLLS_PLATFORM_API_URL: process.env.FAN_POLLS_PLATFORM_API_URL ?? sandbox.apiUrl,
    FAN_POLLS_PLATFORM_AUTH_URL: process.env.FAN_POLLS_PLATFORM_AUTH_URL ?? sandbox.authUrl,
  },
  port: localPorts.proxy,
});
const demo = await serveDemo({ port: localPorts.demo, proxyUrl: proxy.url });
// The version partners pin, as the proxy says it (the configurator reads the same answer).
const { version: widgetVersion } = (await (
  await fetch(proxy.url + configuratorRoutes.settings)
).json()) as ConfiguratorSettings;
const extensionDir = fileURLToPath(new URL('../../dist/extension/', import.meta.url));

console.log(`
Fan Polls is running on the embedded default.

  Demo match page     ${demo.url}/
  Partner proxy       ${proxy.url}
  Embed configurator  ${proxy.url}/configurator/   (pick a poll, preview it, copy the snippet)
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

Ctrl+C stops everything.`);

async function stop(): Promise<void> {
  await Promise.allSettled([demo.close(), proxy.close(), sandbox.close()]);
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
