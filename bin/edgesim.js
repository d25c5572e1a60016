#!/bin/sh
":" /*
# This file is both a shell script and a JavaScript module (the shell runs the lines up to `exec`; to
# JavaScript they are a string and a comment). As the installed command, the shell starts Node from
# edgesim's start-up snapshot (dist/bundle/edgesim-INODE-SIZE.blob: the commands' code loaded and
# compiled, README "Start-up snapshot", docs/start-up.md) when one was built for the `node` on PATH and
# this copy of edgesim: the links beside the blob name what it was built for (.node: the Node
# executable, each Node having its own, as Node refuses a snapshot another version made; .root: this
# copy's folder), and the blob must be newer than that Node executable, the snapshot's code and the
# data centres' table. The shell's tests compare files (`-ef`: the same file; `-nt`: newer) without
# starting a process: its work here is part of every command's start-up. Else, or with
# EDGESIM_NO_SNAPSHOT or NODE_OPTIONS set, it runs the JavaScript below, which asks for a snapshot to
# be built in the background for the next runs (not for a version manager's shim, which may pick
# another Node in another folder).
if [ -z "${EDGESIM_NO_SNAPSHOT-}${NODE_OPTIONS-}" ]; then
  node=
  rest=$PATH:
  while [ -n "$rest" ]; do
    d=${rest%%:*}
    rest=${rest#*:}
    if [ -f "${d:-.}/node" ] && [ -x "${d:-.}/node" ]; then node=${d:-.}/node; break; fi
  done
  # this file: $0, or the file the link $0 is (node_modules/.bin/edgesim, PREFIX/bin/edgesim)
  self=$0
  if [ -L "$self" ]; then
    for c in "${0%/*}/../edgesim/bin/edgesim.js" "${0%/*}/../lib/node_modules/edgesim/bin/edgesim.js"; do
      if [ "$c" -ef "$0" ]; then self=$c; break; fi
    done
    if [ -L "$self" ]; then self=$(readlink -f -- "$0" 2>/dev/null) || self=; fi
  fi
  if [ -n "$node" ] && [ -n "$self" ]; then
    case $self in *[/]*) root=${self%/*}/.. ;; *) root=.. ;; esac
    dir=$root/dist/bundle
    for link in "$dir"/edgesim-*.node; do
      blob=${link%.node}.blob
      if [ "$link" -ef "$node" ] && [ "$root" -ef "${link%.node}.root" ] && [ "$blob" -nt "$node" ] && [ "$blob" -nt "$dir/snapshot-entry.cjs" ] && [ "$blob" -nt "$root/datasets/colos.json" ]; then
        # a replay starts from the snapshot of the replay alone, built with the other (less heap to load)
        if [ "${1-}" = replay ] && [ "${link%.node}.replay.blob" -nt "$dir/snapshot-replay.cjs" ]; then blob=${link%.node}.replay.blob; fi
        exec "$node" --no-rehash-snapshot --snapshot-blob "$blob" "$self" "$@"
      fi
    done
    EDGESIM_SNAPSHOT_NODE=$node exec "$node" "$self" "$@"
  fi
fi
exec node "$0" "$@"
*/
// The installed command run by `node bin/edgesim.js` (or by the shell above without a snapshot): the
// CLI bundled into dist/bundle/ (by `npm install` through `prepare`, or `npm run build`): a few files
// instead of a hundred modules to resolve at start-up, each command's action and what it needs (the
// HTTP framework for serve) in chunks loaded on demand. On Node 22.1 and later the compiled bundle is
// kept in Node's module compile cache, so later runs skip compiling it (NODE_DISABLE_COMPILE_CACHE=1
// turns it off); the bundle is imported once the cache is on, hence the dynamic import.
import module from 'node:module';

// the shell above found no snapshot for the `node` on PATH (this path): one is built in the background once this command is done
const snapshotWanted = process.env.EDGESIM_SNAPSHOT_NODE;
delete process.env.EDGESIM_SNAPSHOT_NODE;

module.enableCompileCache?.();
const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv);
if (snapshotWanted !== undefined) (await import('../dist/bundle/snapshot-build.js')).requestSnapshot(snapshotWanted);
