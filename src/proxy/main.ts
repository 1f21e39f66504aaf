import { loadProxyConfig, ProxyConfigError } from './config.ts';
import { serveProxy } from './serve.ts';

/** `npm run proxy`: the partner proxy, configured from the environment (the local sandbox when nothing is set). */
try {
  loadProxyConfig(process.env);
  const running = await serveProxy({ env: process.env, hostname: process.env.HOST ?? '127.0.0.1' });
  const { config } = running;
  console.log(`Fan Polls partner proxy on ${running.url}
  platform: ${config.platformApiUrl} (API), ${config.platformAuthUrl} (OAuth)${config.allowInsecureRequests ? ' — local sandbox' : ''}
  client id: ${config.clientId}, partner tag: ${config.partnerTag}
  sign-in callback (register it with the platform application): ${config.callbackUrl}
  allowed page origins: ${config.allowedOrigins.join(', ')}
  extension origins: ${config.extensionOrigins.join(', ')}${config.acceptAnyFirefoxOrigin ? ', any moz-extension://<uuid>' : ''}
  extension redirect URIs (register them with the platform application): ${config.extensionRedirectUris.join(', ')}`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  if (error instanceof ProxyConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
