/** The bodies and headers WSO2 API Manager 4.x answers with, exactly as platform-notes.md records them. */

export interface GatewayErrorBody {
  readonly code: string;
  readonly message: string;
  readonly description: string;
  readonly type?: string;
  readonly nextAccessTime?: string;
}

const invalidTokenChallenge =
  'Bearer realm="WSO2 API Manager", error="invalid_token", error_description="The provided token is invalid"';

export const gatewayErrors = {
  missingCredentials: {
    code: '900902',
    message: 'Missing Credentials',
    description:
      "Invalid Credentials. Make sure your API invocation call has a header: 'Authorization : Bearer ACCESS_TOKEN' or 'Authorization : Basic ACCESS_TOKEN' or 'apikey: API_KEY'",
  },
  invalidCredentials: {
    code: '900901',
    message: 'Invalid Credentials',
    description: 'Invalid Credentials. Make sure you have provided the correct security credentials',
  },
  resourceForbidden: {
    code: '900908',
    message: 'Resource forbidden ',
    description: 'User is NOT authorized to access the Resource. API Subscription validation failed.',
  },
  apiNotFound: {
    code: '404',
    type: 'Status report',
    message: 'Not Found',
    description: 'The requested resource is not available.',
  },
  noMatchingResource: {
    code: '404',
    type: 'Status report',
    message: 'Runtime Error',
    description: 'No matching resource found for given API Request',
  },
  methodNotAllowed: {
    code: '405',
    type: 'Status report',
    message: 'Runtime Error',
    description: 'Method not allowed for given API resource',
  },
} as const satisfies Record<string, GatewayErrorBody>;

/** 900905: WSO2 names the API context and version in the description. */
export function incorrectTokenType(apiContext: string, version: string): GatewayErrorBody {
  return {
    code: '900905',
    message: 'Incorrect Access Token Type is provided',
    description: `Access failure for API: ${apiContext}, version: ${version} status: (900905) - Incorrect Access Token Type is provided`,
  };
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** WSO2's throttle time format: `2026-Sep-02 00:00:00+0000 UTC`. */
function formatNextAccessTime(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return (
    `${date.getUTCFullYear()}-${months[date.getUTCMonth()] ?? ''}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+0000 UTC`
  );
}

/** The 429 a throttled request gets: gateway body plus a `Retry-After` HTTP-date (seconds rounded up). */
export function throttledResponse(code: string, nextAccessMs: number): Response {
  const next = Math.ceil(nextAccessMs / 1000) * 1000;
  const nextAccessTime = formatNextAccessTime(next);
  const body: GatewayErrorBody = {
    code,
    message: 'Message throttled out',
    description: `You have exceeded your quota .You can access API after ${nextAccessTime}`,
    nextAccessTime,
  };
  return jsonResponse(429, body, { 'Retry-After': new Date(next).toUTCString() });
}

/** A 401 from the gateway always carries the Bearer challenge. */
export function unauthorizedResponse(body: GatewayErrorBody): Response {
  return jsonResponse(401, body, { 'WWW-Authenticate': invalidTokenChallenge });
}

/** Errors a backend sends through the gateway: the same flat shape, `code` the status as a string. */
export function backendError(status: number, description: string): Response {
  return jsonResponse(status, { code: String(status), message: reasonPhrase(status), description });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', ...headers },
  });
}

const reasonPhrases: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Entity not found',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

function reasonPhrase(status: number): string {
  return reasonPhrases[status] ?? 'Error';
}
