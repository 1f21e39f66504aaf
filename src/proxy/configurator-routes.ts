import { Hono } from 'hono';
import { encodeBase64 } from 'hono/utils/encode';
import {
  configuratorRoutes as configuratorPaths,
  type ConfiguratorSettings,
} from '../contracts/configurator-contract.ts';
import { proxyRouteGroups, routeInGroup } from '../contracts/proxy-contract.ts';
import { ProxyError } from './errors.ts';
import { pathInGroup } from './request-path.ts';
import type { ProxyRuntime } from './runtime.ts';
import type { FileReader } from './file-reader.ts';
import { inPreferredCoding } from './precompressed-answer.ts';
import { builtVersion } from './widget-version.ts';

const contentTypes: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * The embed configurator at `/configurator/`: its built page (`dist/configurator/`), the proxy's settings it needs
 * (public URL, widget version, allowed origins: nothing a page could not learn anyway), and a strict CSP with a
 * fresh nonce on the page's scripts. It previews the widget from this proxy's own `/widget/`.
 */
export function configuratorRoutes(
  runtime: ProxyRuntime,
  files: FileReader,
  widgetFiles: FileReader | undefined,
): Hono {
  const app = new Hono();
  app.get('/', (c) => c.redirect(configuratorPaths.page, 308));
  app.get(routeInGroup(proxyRouteGroups.configurator, configuratorPaths.settings), async (c) => {
    const { config } = runtime;
    const settings: ConfiguratorSettings = {
      proxyUrl: config.publicUrl.replace(/\/+$/, ''),
      version: widgetFiles ? await builtVersion(widgetFiles) : undefined,
      allowedOrigins: config.allowedOrigins,
      allowsLoopbackOrigins: config.allowLoopbackOrigins,
      production: !config.allowInsecureRequests,
    };
    c.header('Cache-Control', 'no-store');
    return c.json(settings);
  });
  app.get('/*', async (c) => {
    const path = pathInGroup(c, proxyRouteGroups.configurator) || 'index.html';
    const bytes = await files(path);
    if (bytes === undefined) throw new ProxyError('not_found', 'No such configurator file.');
    const type = contentTypes[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
    c.header('Content-Type', type);
    if (path !== 'index.html') {
      c.header(
        'Cache-Control',
        path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      return inPreferredCoding(c, files, path, c.body(bytes as Uint8Array<ArrayBuffer>, 200));
    }
    const nonce = encodeBase64(crypto.getRandomValues(new Uint8Array(18)).buffer);
    c.header('Cache-Control', 'no-store');
    c.header('Content-Security-Policy', configuratorSecurityPolicy(nonce));
    c.header('Referrer-Policy', 'strict-origin');
    const page = new TextDecoder().decode(bytes).replaceAll('<script ', `<script nonce="${nonce}" `);
    return c.body(page, 200);
  });
  return app;
}

/**
 * Its scripts by nonce (and what they import, `strict-dynamic`: the widget from this proxy), Lit's adopted styles,
 * polls and logos as the widget reads them, the banner's iframe from this proxy, and no framing of the configurator.
 */
function configuratorSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'`,
    "style-src 'self'",
    "img-src 'self' data: https: http://127.0.0.1:* http://localhost:*",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
