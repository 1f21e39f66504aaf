/**
 * The format of what a sign-in without a pop-up carries in a URL fragment (`sign-in-return.ts`): `key=<value>` parts
 * (the value URL-encoded) beside the fragment's own, separated by `&`. The marker is `key=<code>` or
 * `key-error=<error>`. The proxy writes the marker; the widget and the banner's loader take it.
 */
import type { SignInReturn } from './sign-in-return.ts';

/** Appended to a key for a sign-in that did not finish (`#fan-polls-handoff-error=access_denied`). */
const errorSuffix = '-error';

/** The fragment's `&`-separated parts, without the `#` and without empty ones. */
const fragmentParts = (hash: string): string[] =>
  hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '');

/** `url` with `key=value` as the last part of its fragment; parts under the `replacing` keys go. */
export function withFragmentValue(
  url: string,
  key: string,
  value: string,
  replacing: readonly string[] = [key],
): string {
  const cut = url.indexOf('#');
  const base = cut < 0 ? url : url.slice(0, cut);
  const kept = cut < 0 ? [] : fragmentParts(url.slice(cut));
  const others = kept.filter((part) => !replacing.some((each) => part.startsWith(`${each}=`)));
  return `${base}#${[...others, `${key}=${encodeURIComponent(value)}`].join('&')}`;
}

/** The value of the part under `key` in the fragment `hash`, and the fragment without it (`''` when none is left). */
export function takeFragmentValue(
  hash: string,
  key: string,
): { readonly value: string; readonly rest: string } | undefined {
  const parts = fragmentParts(hash);
  const index = parts.findIndex((part) => part.startsWith(`${key}=`));
  const [part] = index < 0 ? [] : parts.splice(index, 1);
  if (part === undefined) return undefined;
  let value = part.slice(key.length + 1);
  try {
    value = decodeURIComponent(value);
  } catch {
    // Not ours (we write only what `encodeURIComponent` wrote): the reader's check of the value refuses it.
  }
  const rest = parts.join('&');
  return { value, rest: rest && `#${rest}` };
}

/** `url` with `result` as the marker under `key` in its fragment, after the fragment's other parts (an older marker goes). */
export function withSignInReturn(url: string, key: string, result: SignInReturn): string {
  const keys = [key, `${key}${errorSuffix}`];
  return 'handoff' in result
    ? withFragmentValue(url, key, result.handoff, keys)
    : withFragmentValue(url, `${key}${errorSuffix}`, result.error, keys);
}

/** The marker under `key` in the fragment `hash`, and the fragment without it (`''` when nothing else is left). */
export function takeSignInReturn(
  hash: string,
  key: string,
): { readonly result: SignInReturn; readonly rest: string } | undefined {
  const code = takeFragmentValue(hash, key);
  const error = takeFragmentValue(code?.rest ?? hash, `${key}${errorSuffix}`);
  if (code) return { result: { handoff: code.value }, rest: error?.rest ?? code.rest };
  return error && { result: { error: error.value }, rest: error.rest };
}
