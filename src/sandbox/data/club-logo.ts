import type { Club } from './clubs.ts';

/** A club's logo as a small SVG shield with its token symbol, drawn from its colour (no image files needed). */
export function clubLogoSvg(club: Club): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" width="512" height="512" role="img" aria-label="${club.name}">
  <path d="M64 6 L116 22 V62 C116 94 92 114 64 122 C36 114 12 94 12 62 V22 Z" fill="${club.colour}" stroke="#ffffff" stroke-width="6"/>
  <text x="64" y="78" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="34" font-weight="700" fill="#ffffff">${club.tokenSymbol}</text>
</svg>
`;
}
