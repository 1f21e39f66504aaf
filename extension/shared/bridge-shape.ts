import {
  bridgeProtocolVersion,
  bridgeSource,
  type BridgeRequest,
  type BridgeRequestEnvelope,
  type TrackingParameters,
} from '../../src/contracts/bridge-contract.ts';
import { cleanTrackingValue, trackingParameterNames } from '../../src/contracts/tracking.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

/** The exact shape of what a page may send over the bridge. Anything else is dropped without an answer. */

const requestIdPattern = /^[\w-]{1,64}$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function hasExactlyKeys(
  value: Record<string, unknown>,
  required: readonly string[],
  optional: readonly string[] = [],
): boolean {
  const keys = Object.keys(value);
  if (keys.length > required.length + optional.length) return false;
  return (
    required.every((key) => Object.hasOwn(value, key)) &&
    keys.every((key) => required.includes(key) || optional.includes(key))
  );
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

/**
 * The page's tracking parameters, as sent, when each is a string the parameters' one rule keeps (or empty): a page
 * that sends anything else is not a card, and its request is dropped. The authorize request cleans them.
 */
function parseTracking(value: unknown): TrackingParameters | undefined {
  if (!isRecord(value) || !hasExactlyKeys(value, [], trackingParameterNames)) return undefined;
  const tracking: Record<string, string> = {};
  for (const key of trackingParameterNames) {
    const entry = value[key];
    if (entry === undefined) continue;
    if (typeof entry !== 'string' || (entry !== '' && cleanTrackingValue(entry) === undefined))
      return undefined;
    tracking[key] = entry;
  }
  return tracking;
}

export function parseBridgeRequest(value: unknown): BridgeRequest | undefined {
  if (!isRecord(value)) return undefined;
  switch (value['type']) {
    case 'hello':
    case 'status':
      return hasExactlyKeys(value, ['type']) ? { type: value['type'] } : undefined;
    case 'sign-in': {
      if (!hasExactlyKeys(value, ['type', 'tracking'])) return undefined;
      const tracking = parseTracking(value['tracking']);
      return tracking ? { type: 'sign-in', tracking } : undefined;
    }
    case 'poll-view':
      return hasExactlyKeys(value, ['type', 'pollId']) && isUuid(value['pollId'])
        ? { type: 'poll-view', pollId: value['pollId'] }
        : undefined;
    case 'vote':
      return hasExactlyKeys(value, ['type', 'pollId', 'answerId']) &&
        isUuid(value['pollId']) &&
        isUuid(value['answerId'])
        ? { type: 'vote', pollId: value['pollId'], answerId: value['answerId'] }
        : undefined;
    default:
      return undefined;
  }
}

/** A page's request envelope when its shape is exactly right; undefined for anything else (answers included). */
export function parseBridgeEnvelope(data: unknown): BridgeRequestEnvelope | undefined {
  if (!isRecord(data) || !hasExactlyKeys(data, ['source', 'version', 'requestId', 'request']))
    return undefined;
  if (data['source'] !== bridgeSource.page || data['version'] !== bridgeProtocolVersion) return undefined;
  const requestId = data['requestId'];
  if (typeof requestId !== 'string' || !requestIdPattern.test(requestId)) return undefined;
  const request = parseBridgeRequest(data['request']);
  return request
    ? { source: bridgeSource.page, version: bridgeProtocolVersion, requestId, request }
    : undefined;
}
