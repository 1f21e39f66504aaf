import { demoApplication, demoRedirectUris } from '../local-defaults.ts';

/** An OAuth application registered with the sandbox, as a partner creates one in the developer portal. */
export interface RegisteredApplication {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The developer portal user name, sent as `partner_tag` on authorize. */
  readonly partnerTag: string;
  readonly name: string;
  /** Exact-match redirect URIs for the authorization-code flow. */
  readonly redirectUris: readonly string[];
  /** Whether the application is subscribed to the APIs (unsubscribed: 403 900908 on every resource call). */
  readonly subscribed: boolean;
}

export function demoRegisteredApplication(extraRedirectUris: readonly string[] = []): RegisteredApplication {
  return {
    ...demoApplication,
    redirectUris: [...demoRedirectUris(), ...extraRedirectUris],
    subscribed: true,
  };
}

export class ApplicationRegistry {
  readonly #byClientId = new Map<string, RegisteredApplication>();

  constructor(applications: readonly RegisteredApplication[]) {
    for (const application of applications) this.register(application);
  }

  register(application: RegisteredApplication): void {
    this.#byClientId.set(application.clientId, application);
  }

  find(clientId: string): RegisteredApplication | undefined {
    return this.#byClientId.get(clientId);
  }
}
