/** The version segment of each API. Configuration, because the platform moves them (polls `1.0.8` today). */
export interface ApiVersions {
  readonly polls: string;
  readonly user: string;
  readonly survey: string;
}

export const defaultApiVersions: ApiVersions = { polls: '1.0.8', user: '1.0.0', survey: '1.0.0' };

export const defaultTimeoutMs = 10_000;
