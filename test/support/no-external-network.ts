// Tests may talk to this machine only: any fetch to another host fails loudly instead of hanging on a closed network.
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const realFetch = globalThis.fetch.bind(globalThis);

globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  if (!loopbackHosts.has(url.hostname)) {
    return Promise.reject(new Error(`Test tried to reach ${url.origin}; tests may only reach loopback.`));
  }
  return realFetch(input, init);
};
