/**
 * The icon of the proxy's and the sandbox's own pages (sign-in, consent, share): none, said in the page. Without an
 * icon link a browser asks for `/favicon.ico`, which these pages' `default-src 'none'` refuses, and Firefox reports
 * the refusal as an error on every sign-in. An empty `data:` icon, allowed by `pageIconSource`, asks for nothing.
 */
export const pageIconLink = '<link rel="icon" href="data:," />';

/** The CSP directive that lets `pageIconLink` load. */
export const pageIconSource = 'img-src data:';
