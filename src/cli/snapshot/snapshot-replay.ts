// The entry of the start-up snapshot `edgesim replay` starts from (start-up.ts, docs/start-up.md): the
// program with the replay alone registered, so the bundle (dist/bundle/snapshot-replay.cjs) and the
// heap saved hold the replay's code and none of the other commands' (a 1-packet replay from it takes
// 4 ms less CPU than from the snapshot of every command). Its help and errors are the replay's as the
// whole program gives them (test/cli/snapshot.test.ts compares them).
import { buildProgramOf } from '../program.js';
import { register as replay } from '../commands/replay/command.js';
import { buildStartupSnapshot } from './start-up.js';

buildStartupSnapshot(() => buildProgramOf([replay]));
