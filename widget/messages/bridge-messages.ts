import {
  bridgeProtocolVersion,
  bridgeSource,
  type BridgeRequest,
  type BridgeRequestEnvelope,
  type BridgeResponseEnvelope,
} from '../../src/contracts/bridge-contract.ts';
import { hasOnlyKeys, isShortString } from './shape.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

export function bridgeRequest(requestId: string, request: BridgeRequest): BridgeRequestEnvelope {
  return { source: bridgeSource.page, version: bridgeProtocolVersion, requestId, request };
}

/** An answer from the extension's content script to request `requestId`, when its shape is exactly right. */
export function isBridgeResponse(data: unknown, requestId: string): data is BridgeResponseEnvelope {
  if (!isRecord(data) || !hasOnlyKeys(data, ['source', 'version', 'requestId', 'outcome'])) return false;
  if (data.source !== bridgeSource.extension || data.version !== bridgeProtocolVersion) return false;
  if (data.requestId !== requestId || !isRecord(data.outcome)) return false;
  const outcome = data.outcome;
  if (outcome.ok === true) return isRecord(outcome.result) && isShortString(outcome.result.type, 40);
  return (
    outcome.ok === false &&
    isRecord(outcome.error) &&
    isShortString(outcome.error.code, 100) &&
    typeof outcome.error.message === 'string'
  );
}
