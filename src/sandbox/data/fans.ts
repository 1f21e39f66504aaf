import { clubs } from './clubs.ts';

/** A seeded fan who can sign in on the sandbox's login page and vote with the fan tokens they hold. */
export interface Fan {
  readonly userId: string;
  readonly username: string;
  readonly password: string;
  readonly displayName: string;
  /** Fan tokens held, by partner id. Zero or absent: not a holder, cannot vote in that club's polls. */
  readonly holdings: Readonly<Record<string, number>>;
  /** The sandbox's way to show a refused on-chain vote: this fan's votes end `rejected` once confirmed. */
  readonly votesEndRejected?: boolean;
}

/** Every seeded fan shares one password so that the login page is easy to use in a demo. */
export const demoPassword = 'fan-polls';

export const fans: readonly Fan[] = [
  {
    userId: '0f8c2a4e-6b1d-4e3f-9a5c-7d2e4f6a8b01',
    username: 'alex',
    password: demoPassword,
    displayName: 'Alex (holds RIV)',
    holdings: { [clubs.riverside.partnerId]: 12 },
  },
  {
    userId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02',
    username: 'sam',
    password: demoPassword,
    displayName: 'Sam (holds RIV, NGU, HBR)',
    holdings: {
      [clubs.riverside.partnerId]: 250,
      [clubs.northgate.partnerId]: 40,
      [clubs.harbourEsports.partnerId]: 3,
    },
  },
  {
    userId: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d03',
    username: 'jo',
    password: demoPassword,
    displayName: 'Jo (holds no fan tokens)',
    holdings: {},
  },
  {
    userId: '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e04',
    username: 'kim',
    password: demoPassword,
    displayName: 'Kim (holds NGU)',
    holdings: { [clubs.northgate.partnerId]: 5000 },
  },
  {
    userId: '4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f05',
    username: 'rex',
    password: demoPassword,
    displayName: 'Rex (holds RIV; his votes end rejected)',
    holdings: { [clubs.riverside.partnerId]: 80 },
    votesEndRejected: true,
  },
];

export function findFanByUsername(username: string): Fan | undefined {
  return fans.find((fan) => fan.username === username);
}

export function findFanById(userId: string): Fan | undefined {
  return fans.find((fan) => fan.userId === userId);
}
