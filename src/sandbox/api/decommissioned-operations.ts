/**
 * The spec's "Decommissioned endpoints", as a client would call them on this gateway, with the answer a WSO2
 * gateway gives once an operation is removed. Nothing here is routed: the answers fall out of the deployed
 * operations table (gateway-resources.ts); this list documents them and drives the tests.
 *
 * Two listed operations, `GET /polls` and `POST /user/poll/{pollId}/vote`, are also current (deprecated)
 * operations of polls 1.0.8; the sandbox keeps them working, because the spec lists them as endpoints and the
 * issue needs voting (recorded in the README's choices table).
 */
export interface DecommissionedOperation {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly status: 404 | 405;
  /** `unknown-api` for the removed NFT and wallet APIs; otherwise the path is inside a deployed API. */
  readonly answer: 'unknown-api' | 'no-matching-resource' | 'method-not-allowed';
}

const pollId = '00000000-0000-4000-8000-000000000000';

export const decommissionedOperations: readonly DecommissionedOperation[] = [
  // Polls: the path lives on with another method.
  { method: 'POST', path: '/polls/1.0.8/user/polls', status: 405, answer: 'method-not-allowed' },
  { method: 'POST', path: `/polls/1.0.8/user/poll/${pollId}`, status: 405, answer: 'method-not-allowed' },
  { method: 'POST', path: '/polls/1.0.8/user/polls/history', status: 405, answer: 'method-not-allowed' },
  { method: 'GET', path: `/polls/1.0.8/user/poll/${pollId}/vote`, status: 405, answer: 'method-not-allowed' },
  // NFT and wallet operations, asked of a deployed API: no such resource any more.
  { method: 'GET', path: '/user/1.0.0/user/nfts', status: 404, answer: 'no-matching-resource' },
  { method: 'GET', path: '/user/1.0.0/user/wallet', status: 404, answer: 'no-matching-resource' },
  { method: 'GET', path: '/user/1.0.0/user/wallet/tx-1', status: 404, answer: 'no-matching-resource' },
  {
    method: 'GET',
    path: '/user/1.0.0/user/wallet/transaction-history/fan-token',
    status: 404,
    answer: 'no-matching-resource',
  },
  { method: 'GET', path: '/polls/1.0.8/user/nfts', status: 404, answer: 'no-matching-resource' },
  // The NFT and wallet APIs themselves are gone.
  { method: 'GET', path: '/nft/1.0.0/user/nfts', status: 404, answer: 'unknown-api' },
  { method: 'GET', path: '/nft/1.0.0/nft/42', status: 404, answer: 'unknown-api' },
  { method: 'POST', path: '/nft/1.0.0/admin/nft/smart-contract', status: 404, answer: 'unknown-api' },
  { method: 'POST', path: '/nft/1.0.0/admin/nft/collectible-definition', status: 404, answer: 'unknown-api' },
  { method: 'POST', path: '/nft/1.0.0/admin/nft/c-1/asset-upload', status: 404, answer: 'unknown-api' },
  { method: 'POST', path: '/nft/1.0.0/admin/nft/d-1/mint', status: 404, answer: 'unknown-api' },
  { method: 'GET', path: '/wallet/1.0.0/user/wallet', status: 404, answer: 'unknown-api' },
  { method: 'GET', path: '/wallet/1.0.0/user/wallet/tx-1', status: 404, answer: 'unknown-api' },
  {
    method: 'GET',
    path: '/wallet/1.0.0/user/wallet/transaction-history/fan-token',
    status: 404,
    answer: 'unknown-api',
  },
  {
    method: 'POST',
    path: '/wallet/1.0.0/admin/wallet/transfer/fan-token',
    status: 404,
    answer: 'unknown-api',
  },
  { method: 'POST', path: '/wallet/1.0.0/wallet/sign-message', status: 404, answer: 'unknown-api' },
];
