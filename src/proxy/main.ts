import { loadProxyConfig, ProxyConfigError } from './config.ts';
import { choosePreset, presetSummary } from './config/preset-choice.ts';
import { serveProxy } from './serve.ts';

/** How long SIGTERM lets requests in flight finish (a load balancer's deregistration delay should be longer). */
const shutdownGraceMs = 10_000;

/**
 * The partner proxy, configured from the environment (production's rules unless `FAN_POLLS_PRESET=sandbox` chooses
 * the local sandbox): `npm run proxy` from source, or `node dist/proxy/main.js` (`npm run proxy:prod`) from the build.
 */
try {
  const { host } = loadProxyConfig(process.env);
  const running = await serveProxy({ env: process.env, hostname: host });
  const { config } = running;
  console.log(`Fan Polls partner proxy on ${running.url}
  preset: ${presetSummary(choosePreset(process.env))}
  platform: ${config.platformApiUrl} (API), ${config.platformAuthUrl} (OAuth)
  client id: ${config.clientId}, partner tag: ${config.partnerTag}
  shared state: ${config.redisUrl === undefined ? 'in memory (one instance; set FAN_POLLS_REDIS_URL for several)' : 'Redis'}
  sign-in callback (register it with the platform application): ${config.callbackUrl}
  allowed page origins: ${config.allowedOrigins.join(', ')} (FAN_POLLS_ALLOWED_ORIGINS, comma-separated)
  widget: ${running.url}/widget/fan-polls.js, iframe page ${running.url}/widget/embed/poll.html
  extension origins: ${config.extensionOrigins.join(', ')}${config.acceptAnyFirefoxOrigin ? ', any moz-extension://<uuid>' : ''}
  extension redirect URIs (register them with the platform application): ${config.extensionRedirectUris.join(', ')}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(
      `${signal}: no new connections; finishing requests in flight (at most ${shutdownGraceMs / 1000} s)`,
    );
    void running.close({ graceMs: shutdownGraceMs }).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => {
    stop('SIGINT');
  });
  process.once('SIGTERM', () => {
    stop('SIGTERM');
  });
} catch (error) {
  if (error instanceof ProxyConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
