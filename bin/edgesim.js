#!/usr/bin/env node
// The installed command: runs the compiled CLI (built into dist/ by `npm install` through `prepare`).
import { main } from '../dist/cli/main.js';

main(process.argv).then((code) => { process.exitCode = code; });
