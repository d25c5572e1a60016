#!/usr/bin/env node
// The installed command: runs the CLI bundled into dist/bundle/ (by `npm install` through `prepare`,
// or `npm run build`): a few files instead of a hundred modules to resolve at start-up, each
// command's action and what it needs (the HTTP framework for serve) in chunks loaded on demand.
import { main } from '../dist/bundle/main.js';

main(process.argv).then((code) => { process.exitCode = code; });
