/**
 * The APIs deployed on the sandbox's gateway and their operations, with the spec's literal paths. The gateway
 * decides "unknown API" (404 Not Found), "no matching resource" (404) and "method not allowed" (405) from this
 * table, before it looks at any token, as WSO2 does.
 */
export type GatewayTokenKind = 'application' | 'user';

export type OperationName =
  | 'listPolls'
  | 'readPoll'
  | 'readUserPoll'
  | 'listUserPolls'
  | 'listUserPollHistory'
  | 'vote'
  | 'readCurrentUser'
  | 'listSurveys';

export interface GatewayOperation {
  readonly method: 'GET' | 'POST';
  /** Hono path with `:pollId` parameters. */
  readonly path: string;
  readonly token: GatewayTokenKind;
  readonly name: OperationName;
  /** The API's context and version, as WSO2 names them in 900905 descriptions. */
  readonly apiContext: string;
  readonly version: string;
}

export const gatewayOperations: readonly GatewayOperation[] = [
  op('GET', '/polls/1.0.8/polls', 'application', 'listPolls'),
  op('GET', '/polls/1.0.8/poll/:pollId', 'application', 'readPoll'),
  op('GET', '/polls/1.0.8/user/poll/:pollId', 'user', 'readUserPoll'),
  op('GET', '/polls/1.0.8/user/polls', 'user', 'listUserPolls'),
  op('GET', '/polls/1.0.8/user/polls/history', 'user', 'listUserPollHistory'),
  op('POST', '/polls/1.0.8/user/poll/:pollId/vote', 'user', 'vote'),
  op('GET', '/user/1.0.0/user/me', 'user', 'readCurrentUser'),
  op('GET', '/survey/1.0.0/survey/surveys', 'application', 'listSurveys'),
];

function op(
  method: GatewayOperation['method'],
  path: string,
  token: GatewayTokenKind,
  name: OperationName,
): GatewayOperation {
  const [, context = '', version = ''] = path.split('/');
  return { method, path, token, name, apiContext: `/${context}/${version}`, version };
}

/** `/polls/1.0.8`, `/user/1.0.0`, `/survey/1.0.0`: the API contexts with their version segment. */
const deployedApiPrefixes: readonly string[] = [
  ...new Set(gatewayOperations.map((operation) => operation.apiContext)),
];

export type GatewayMatch = 'unknown-api' | 'no-matching-resource' | 'method-not-allowed';

/** Why a request found no operation: classifies a path as the gateway would. */
export function classifyUnmatched(method: string, pathname: string): GatewayMatch {
  const inDeployedApi = deployedApiPrefixes.some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
  if (!inDeployedApi) return 'unknown-api';
  const samePath = gatewayOperations.filter((operation) => pathPattern(operation.path).test(pathname));
  if (samePath.length > 0 && !samePath.some((operation) => operation.method === method)) {
    return 'method-not-allowed';
  }
  return 'no-matching-resource';
}

function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.]/g, '\\.')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}
