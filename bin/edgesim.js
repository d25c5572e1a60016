#!/usr/bin/env node
// The installed command: runs the CLI bundled into dist/bundle/ (by `npm install` through `prepare`,
// or `npm run build`): a few files instead of a hundred modules to resolve at start-up, each
// command's action and what it needs (the HTTP framework for serve) in chunks loaded on demand.
// On Node 22.1 and later the compiled bundle is kept in Node's module compile cache, so later runs
// skip compiling it (README "Speed"; NODE_DISABLE_COMPILE_CACHE=1 turns it off); the bundle is
// imported once the cache is on, hence the dynamic import.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/bundle/main.js');
main(process.argv).then((code) => { process.exitCode = code; });
