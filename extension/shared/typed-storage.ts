/** The part of `browser.storage.*` Fan Polls uses; the real areas and the tests' fakes both fit it. */
export interface StorageAreaLike {
  get(keys: string | string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | string[]): Promise<void>;
}

/**
 * One key of a storage area, typed, with a default and a check: whatever is stored is parsed on the way out, so a
 * value written by an older version (or tampered with) reads as the default instead of crashing a handler.
 */
export class TypedStorageItem<T> {
  constructor(
    private readonly area: StorageAreaLike,
    readonly key: string,
    private readonly defaultValue: T,
    private readonly parse: (value: unknown) => T | undefined,
  ) {}

  async get(): Promise<T> {
    const stored = (await this.area.get(this.key))[this.key];
    if (stored === undefined) return this.defaultValue;
    return this.parse(stored) ?? this.defaultValue;
  }

  async set(value: T): Promise<void> {
    await this.area.set({ [this.key]: value });
  }

  async remove(): Promise<void> {
    await this.area.remove(this.key);
  }
}
