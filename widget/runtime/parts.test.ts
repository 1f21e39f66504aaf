import { afterEach, describe, expect, it, vi } from 'vitest';
import { exposeRuntime, registerPart, scriptPartLoader } from './parts.ts';
import { runtimeGlobalName } from './runtime-global.ts';

/** Keeps the injected script out of the document (happy-dom would fetch it) and hands it to the test. */
function captureScript(): () => HTMLScriptElement {
  let captured: HTMLScriptElement | undefined;
  vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
    captured = nodes[0] as HTMLScriptElement;
  });
  return () => captured!;
}

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(globalThis, runtimeGlobalName);
});

describe('scriptPartLoader', () => {
  it('loads a part beside the loader, with the loader’s nonce, and resolves with what the part registered', async () => {
    exposeRuntime({});
    const script = captureScript();
    const loading = scriptPartLoader('https://cdn.example/widget/fan-polls.js', 'n0nce')('voting');
    expect(script().src).toBe('https://cdn.example/widget/fan-polls.voting.js');
    expect(script().nonce).toBe('n0nce');
    expect(script().async).toBe(true);
    const part = { createVoting: () => undefined };
    registerPart('voting', part);
    script().dispatchEvent(new Event('load'));
    await expect(loading).resolves.toBe(part);
  });

  it('sets no nonce when the loader had none', () => {
    exposeRuntime({});
    const script = captureScript();
    void scriptPartLoader('https://cdn.example/w/fan-polls.js', undefined)('fr').catch(() => undefined);
    expect(script().hasAttribute('nonce')).toBe(false);
  });

  it('rejects when the file fails to load or does not register its part', async () => {
    exposeRuntime({});
    const script = captureScript();
    const failing = scriptPartLoader('https://cdn.example/w/fan-polls.js', undefined)('list');
    script().dispatchEvent(new Event('error'));
    await expect(failing).rejects.toThrow(/could not load/);
    const silent = scriptPartLoader('https://cdn.example/w/fan-polls.js', undefined)('fr');
    script().dispatchEvent(new Event('load'));
    await expect(silent).rejects.toThrow(/did not register/);
  });

  it('keeps the first copy’s runtime when a second copy of the same version starts', () => {
    const first = { copy: 1 };
    exposeRuntime(first);
    exposeRuntime({ copy: 2 });
    expect((globalThis as unknown as Record<string, { m: object } | undefined>)[runtimeGlobalName]?.m).toBe(
      first,
    );
  });
});
