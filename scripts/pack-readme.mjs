// npm shows the README.md at the package's root. The repository's README.md is the developers'
// (npm start, npm test, the figures); site authors get docs/package-readme.md instead. npm's
// prepack runs `swap` (README.md is kept aside in .README.developers.md), postpack `restore`.
// A pack that died between the two leaves the copy aside: the next swap restores it first.
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = path.join(root, 'README.md');
const ASIDE = path.join(root, '.README.developers.md');
const PACKAGE = path.join(root, 'docs/package-readme.md');

function restore() {
  if (existsSync(ASIDE)) renameSync(ASIDE, README);
}

function swap() {
  restore();
  renameSync(README, ASIDE);
  copyFileSync(PACKAGE, README);
}

const commands = { swap, restore };
const command = commands[process.argv[2]];
if (!command) {
  console.error('usage: node scripts/pack-readme.mjs swap|restore');
  process.exit(2);
}
command();
