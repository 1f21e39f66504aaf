/**
 * What the reference says about the iframe page's URL and the proxy's embedding settings: these are read by code
 * with no JSDoc of its own (`widget/iframe/frame-page.ts`, `src/proxy/config/config-table.ts`); `reference.test.ts`
 * checks that each name is still read there.
 */
export const iframeParameters = [
  { name: 'poll', meaning: 'The poll id (from `poll-id`).' },
  {
    name: 'current',
    meaning:
      'Instead of `poll`: the partner ids (from `partner-ids`, with `current`) whose current poll the card follows.',
  },
  {
    name: 'next-href',
    meaning:
      'The partner’s links, under the attributes’ own names (`next-href`, `next-label`, `get-tokens-href`, `verify-href`); the card checks them as it does its attributes.',
  },
  { name: 'next-label', meaning: 'See `next-href`.' },
  { name: 'get-tokens-href', meaning: 'See `next-href`.' },
  { name: 'verify-href', meaning: 'See `next-href`.' },
  { name: 'theme', meaning: '`light`, `dark` or `auto`; anything else is the default, light.' },
  {
    name: 'lang',
    meaning: 'A language tag (`fr`, `pt-BR`); the card shows `en`, `fr`, `es`, `pt`, `de` or `it`.',
  },
  { name: 'transparent', meaning: '`1`: no background of its own.' },
  {
    name: 'results',
    meaning:
      'Who sees an open poll’s shares: `after-vote` or `after-close` (the fan who voted, and everyone once it closes); else `always`.',
  },
  {
    name: 'referrer',
    meaning:
      'Tracking parameter; like the four below: trimmed, printable, at most 100 characters, else dropped.',
  },
  { name: 'campaign', meaning: 'Tracking parameter.' },
  { name: 'param1', meaning: 'Tracking parameter.' },
  { name: 'param2', meaning: 'Tracking parameter.' },
  { name: 'param3', meaning: 'Tracking parameter.' },
] as const;

export const proxySettings = [
  {
    name: 'FAN_POLLS_ALLOWED_ORIGINS',
    meaning:
      'Comma-separated exact origins (scheme, host, port; https in production) of the pages that embed the widget. It decides CORS for poll reads, sign-in and the fan’s routes, and the iframe page’s `frame-ancestors`: a page whose origin is not listed shows no card and cannot frame the banner. The configurator checks a page against it and prints the value to set.',
  },
  {
    name: 'FAN_POLLS_PUBLIC_URL',
    meaning:
      'Where browsers reach the proxy: the URL in your snippets (`src`, `data-proxy`), filled into the iframe page, and the sign-in callback `<it>/auth/callback` to register with the platform.',
  },
  {
    name: 'FAN_POLLS_WIDGET_DIR',
    meaning:
      'The built widget the proxy serves under `/widget/` and `/widget/v<version>/` (default `dist/widget/`).',
  },
] as const;
