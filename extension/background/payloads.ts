import { maxUserPollIds, type HistoryQuery, type UserPollsQuery } from '../shared/messages.ts';
import { isUuid, parseBridgeRequest } from '../shared/bridge-shape.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { invalidRequest } from './router.ts';
import type { BridgeMessage } from '../shared/messages.ts';
import { parseSiteOrigin } from '../shared/site-origin.ts';

/** Payload checks of the privileged messages (extension pages) and of the bridge (content scripts). */

/** The content script's forwarding: the page's request (checked again here) and whether the fan just clicked. */
export function parseBridgePayload(payload: unknown): BridgeMessage {
  if (!isRecord(payload) || typeof payload['userActivated'] !== 'boolean') return invalidRequest();
  const request = parseBridgeRequest(payload['request']);
  return request ? { request, userActivated: payload['userActivated'] } : invalidRequest();
}

export function parsePollRef(payload: unknown): { pollId: string } {
  return isRecord(payload) && isUuid(payload['pollId']) ? { pollId: payload['pollId'] } : invalidRequest();
}

export function parseVote(payload: unknown): { pollId: string; answerId: string } {
  return isRecord(payload) && isUuid(payload['pollId']) && isUuid(payload['answerId'])
    ? { pollId: payload['pollId'], answerId: payload['answerId'] }
    : invalidRequest();
}

export function parseUserPollsQuery(payload: unknown): UserPollsQuery {
  if (!isRecord(payload) || typeof payload['userVoted'] !== 'boolean') return invalidRequest();
  const userVoted = payload['userVoted'];
  const ids: unknown = payload['ids'];
  if (ids === undefined) return { userVoted };
  const validIds = Array.isArray(ids) && ids.length >= 1 && ids.length <= maxUserPollIds && ids.every(isUuid);
  return validIds ? { userVoted, ids } : invalidRequest();
}

export function parseHistoryQuery(payload: unknown): HistoryQuery {
  if (!isRecord(payload)) return invalidRequest();
  const { search, page, limit } = payload;
  const validPage = Number.isInteger(page) && (page as number) >= 1 && (page as number) <= 10_000;
  const validLimit = Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= 100;
  const validSearch = search === undefined || (typeof search === 'string' && search.length <= 100);
  if (!validPage || !validLimit || !validSearch) return invalidRequest();
  const trimmed = typeof search === 'string' ? search.trim() : '';
  return { page: page as number, limit: limit as number, ...(trimmed ? { search: trimmed } : {}) };
}

/** A site to connect or disconnect: an http(s) origin, as the popup read it from the tab. */
export function parseSiteOriginPayload(payload: unknown): { origin: string } {
  if (!isRecord(payload) || typeof payload['origin'] !== 'string' || payload['origin'].length > 300) {
    return invalidRequest();
  }
  const origin = parseSiteOrigin(payload['origin']);
  return origin === payload['origin'] ? { origin } : invalidRequest();
}

export function parseProposalId(payload: unknown): { proposalId: string } {
  return isRecord(payload) && isUuid(payload['proposalId'])
    ? { proposalId: payload['proposalId'] }
    : invalidRequest();
}

export function parseProposalDecision(payload: unknown): { proposalId: string; answerId: string | null } {
  if (!isRecord(payload) || !isUuid(payload['proposalId'])) return invalidRequest();
  const answerId = payload['answerId'];
  return answerId === null || isUuid(answerId)
    ? { proposalId: payload['proposalId'], answerId }
    : invalidRequest();
}
