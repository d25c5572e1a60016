#!/usr/bin/env node
// The installed command: runs the compiled CLI (built into dist/ by `npm install` through `prepare`).
import { main } from '../dist/cli/main.js';

// `edgesim ... | head`: the reader went away; stop quietly, as other command-line tools do
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

main(process.argv).then((code) => { process.exitCode = code; });
