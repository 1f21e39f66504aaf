/** Seeded partners (clubs): their ids, names and the fan token that gives their fans a vote. */
export interface Club {
  readonly partnerId: string;
  readonly name: string;
  /** Fan token symbol, for display in the consent page. */
  readonly tokenSymbol: string;
  /** Logo file served by the sandbox under `/assets/clubs/<slug>.svg`. */
  readonly slug: string;
  readonly colour: string;
}

export const clubs = {
  riverside: {
    partnerId: '5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61',
    name: 'Riverside FC',
    tokenSymbol: 'RIV',
    slug: 'riverside',
    colour: '#c8102e',
  },
  northgate: {
    partnerId: '7d9e1f20-3a4b-4c5d-8e6f-7a8b9c0d1e22',
    name: 'Northgate United',
    tokenSymbol: 'NGU',
    slug: 'northgate',
    colour: '#1d428a',
  },
  harbourEsports: {
    partnerId: 'a3c5e7f9-1b2d-4f6a-8c0e-2d4f6a8c0e13',
    name: 'Harbour Esports',
    tokenSymbol: 'HBR',
    slug: 'harbour',
    colour: '#0b8a5f',
  },
} as const satisfies Record<string, Club>;

export const allClubs: readonly Club[] = Object.values(clubs);
