// `npm run release -- <version> [--dry-run]`: the release's steps (`release-steps.ts`) on this repository's files,
// git and npm. `npm run release -- --help` prints what it does.
import { fileURLToPath } from 'node:url';
import { checkoutWorld } from './checkout-world.ts';
import { releaseCommand } from './release-command.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const today = new Date().toISOString().slice(0, 10);
process.exitCode = releaseCommand(process.argv.slice(2), process.env, checkoutWorld(root), today, (line) => {
  console.error(line);
});
