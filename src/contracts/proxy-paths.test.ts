import { describe, expect, it } from 'vitest';
import * as paths from './proxy-paths.ts';
import { proxyPollsRoute, proxyRoutes } from './proxy-contract.ts';

// The widget's plain paths and the proxy's group-built table are two spellings of one fact: this keeps them equal.
describe('the plain proxy paths', () => {
  it.each([
    ['pollsPath', paths.pollsPath, proxyRoutes.polls],
    ['signInPath', paths.signInPath, proxyRoutes.signIn],
    ['sessionPath', paths.sessionPath, proxyRoutes.session],
    ['sessionHandoffPath', paths.sessionHandoffPath, proxyRoutes.sessionHandoff],
    ['signOutPath', paths.signOutPath, proxyRoutes.signOut],
  ])('%s is the route the proxy serves', (_name, plain, routed) => {
    expect(plain).toBe(routed);
  });

  it.each(['p1', 'a b/c?d', 'é#'])('builds the fan routes of poll %j as the proxy does', (pollId) => {
    expect(paths.userPollPath(pollId)).toBe(proxyRoutes.userPoll(pollId));
    expect(paths.votePath(pollId)).toBe(proxyRoutes.vote(pollId));
    expect(paths.pollsPath).toBe(proxyPollsRoute);
  });
});
