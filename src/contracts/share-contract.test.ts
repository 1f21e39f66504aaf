import { describe, expect, it } from 'vitest';
import {
  pollIdOfSharePath,
  shareImagePath,
  sharePagePath,
  shareTargetProblem,
  shareTargetUrl,
  shareTracking,
} from './share-contract.ts';

const pollId = '19796e99-2645-5f33-a341-f467f52a9fbf';
const anyLoopback = () => true;
const noLoopback = () => false;

describe('share paths', () => {
  it('writes the page and the image path, and reads the poll id back under a base path', () => {
    expect(sharePagePath(pollId)).toBe(`/share/polls/${pollId}`);
    expect(shareImagePath(pollId)).toBe(`/share/polls/${pollId}.png`);
    expect(pollIdOfSharePath(`/share/polls/${pollId}`)).toBe(pollId);
    expect(pollIdOfSharePath(`/polls-proxy/share/polls/${pollId}`, '/polls-proxy')).toBe(pollId);
    expect(pollIdOfSharePath(`/share/polls/${pollId}/more`)).toBeUndefined();
    expect(pollIdOfSharePath(`/api/polls/${pollId}`)).toBeUndefined();
    expect(pollIdOfSharePath('/share/polls/%E0%A4%A')).toBeUndefined();
  });
});

describe('the share target template', () => {
  it('needs {pollId}, an absolute https URL (http only where the caller allows), no fragment or credentials', () => {
    expect(shareTargetProblem('https://www.club.example/polls/{pollId}', noLoopback)).toBeUndefined();
    expect(shareTargetProblem('https://www.club.example/poll?id={pollId}', noLoopback)).toBeUndefined();
    expect(shareTargetProblem('https://www.club.example/polls', noLoopback)).toMatch(/{pollId}/);
    expect(shareTargetProblem('/polls/{pollId}', noLoopback)).toMatch(/not a URL/);
    expect(shareTargetProblem('http://127.0.0.1:4030/{pollId}', noLoopback)).toMatch(/https/);
    expect(shareTargetProblem('http://127.0.0.1:4030/{pollId}', anyLoopback)).toBeUndefined();
    expect(shareTargetProblem('javascript:alert(1)//{pollId}', anyLoopback)).toMatch(/https/);
    expect(shareTargetProblem('https://user:pass@www.club.example/{pollId}', noLoopback)).toMatch(/password/);
    expect(shareTargetProblem('https://www.club.example/{pollId}#vote', noLoopback)).toMatch(/fragment/);
  });

  it('fills in the poll id and appends the cleaned tracking values, campaign=share unless the link names one', () => {
    const template = 'https://www.club.example/polls/{pollId}?from=share';
    expect(
      shareTargetUrl(template, pollId, shareTracking(new URLSearchParams('referrer=news&param2=b'))),
    ).toBe(`https://www.club.example/polls/${pollId}?from=share&referrer=news&campaign=share&param2=b`);
    expect(
      shareTargetUrl(template, pollId, shareTracking(new URLSearchParams('campaign=derby&evil=1'))),
    ).toBe(`https://www.club.example/polls/${pollId}?from=share&campaign=derby`);
    expect(
      shareTargetUrl(template, pollId, shareTracking(new URLSearchParams(`referrer=${'x'.repeat(101)}`))),
    ).toBe(`https://www.club.example/polls/${pollId}?from=share&campaign=share`);
  });
});
