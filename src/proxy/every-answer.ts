/**
 * The header every answer of the proxy carries besides its request id: set by `app.ts`'s middleware, and by the
 * routes that build their whole answer once and serve it as it is (the cached poll read).
 */
export const noSniffHeader = { name: 'X-Content-Type-Options', value: 'nosniff' } as const;
