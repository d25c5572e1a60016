// The entry of edgesim's V8 start-up snapshot of every command (start-up.ts, docs/start-up.md): bundled
// on its own into dist/bundle/snapshot-entry.cjs and run by `node --build-snapshot` (snapshot-build.ts).
import { buildProgram } from '../main.js';
import { buildStartupSnapshot } from './start-up.js';

buildStartupSnapshot(buildProgram);
