// The package.json that goes into the tarball `npm pack` writes: the project's own, without the
// lifecycle scripts that build edgesim from its sources (prepare, prepack, postpack). `prepare`
// builds a git install (npm runs it there); a tarball holds the build already, npm never runs its
// `prepare`, and yet npm 11 lists it when the tarball is installed ("1 package has install scripts
// not yet covered by allowScripts"). npm pack runs `prepack` (this script with `strip`: build, then
// set the packed manifest in place) and, once the tarball is written, `postpack` (`restore`).
// The manifest is replaced by renaming, so a reader never sees half a file.
//   node scripts/packed-manifest.mjs strip      (EDGESIM_PREBUILT=1: dist/ is built already, as in the tests)
//   node scripts/packed-manifest.mjs restore
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const SAVED = '.package.json.unpacked';
/** the scripts that build from the sources, left out of the tarball */
const SOURCE_ONLY = ['prepare', 'prepack', 'postpack'];

function replace(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

const [command] = process.argv.slice(2);
if (command === 'strip') {
  if (existsSync(SAVED)) throw new Error(`${SAVED} is there: a pack did not finish; restore it first (node scripts/packed-manifest.mjs restore)`);
  if (process.env.EDGESIM_PREBUILT !== '1') execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const text = readFileSync(MANIFEST, 'utf8');
  const pkg = JSON.parse(text);
  for (const name of SOURCE_ONLY) delete pkg.scripts[name];
  writeFileSync(SAVED, text);
  replace(MANIFEST, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (command === 'restore') {
  if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
} else {
  process.stderr.write('usage: node scripts/packed-manifest.mjs strip | restore\n');
  process.exitCode = 2;
}
