#!/bin/sh
":" /*
# This file is both a shell script and a JavaScript module (the shell runs the lines up to `exec`; to
# JavaScript they are a string and a comment). As the installed command, the shell starts Node from
# edgesim's start-up snapshot (dist/bundle/edgesim-INODE-SIZE.blob: the commands' code loaded and
# compiled, README "Start-up snapshot", docs/start-up.md) when one was built for the `node` on PATH and
# this copy of edgesim: the blob is named by that Node's executable (its inode and size), so each Node
# has its own, and its .id line names what it was built from (this file, the Node executable's path,
# inode, size and time, the snapshot entry's and the data centre table's); it is used for nothing else
# (Node refuses a snapshot another version made). Else, or with EDGESIM_NO_SNAPSHOT or NODE_OPTIONS
# set, or for a Node that is not a real executable (a version manager's small shim, which may pick
# another Node in another folder), it runs the JavaScript below, which asks for a snapshot to be built
# in the background for the next runs.
nl='
'
node=$(command -v node) || { echo "edgesim: node is not on PATH" >&2; exit 127; }
if [ -z "${EDGESIM_NO_SNAPSHOT-}${NODE_OPTIONS-}" ] && both=$(readlink -f -- "$0" "$node" 2>/dev/null); then
  self=${both%"$nl"*}
  real=${both#*"$nl"}
  root=${self%/bin/*}
  dir=$root/dist/bundle
  if stats=$(stat -L --printf='%i %s %Y ' -- "$real" "$dir/snapshot-entry.cjs" "$root/datasets/colos.json" 2>/dev/null); then
    stats=${stats% }
    inode=${stats%% *}
    size=${stats#* }
    size=${size%% *}
    if [ "$size" -gt 20000000 ]; then
      id="$self $real $stats"
      blob=$dir/edgesim-$inode-$size.blob
      if [ -f "$blob.id" ] && read -r built <"$blob.id" && [ "$built" = "$id" ] && [ -f "$blob" ]; then
        exec "$node" --no-rehash-snapshot --snapshot-blob "$blob" "$self" "$@"
      fi
      EDGESIM_SNAPSHOT_ID=$id exec "$node" "$self" "$@"
    fi
  fi
fi
exec "$node" "$0" "$@"
*/
// The installed command run by `node bin/edgesim.js` (or by the shell above without a snapshot): the
// CLI bundled into dist/bundle/ (by `npm install` through `prepare`, or `npm run build`): a few files
// instead of a hundred modules to resolve at start-up, each command's action and what it needs (the
// HTTP framework for serve) in chunks loaded on demand. On Node 22.1 and later the compiled bundle is
// kept in Node's module compile cache, so later runs skip compiling it (NODE_DISABLE_COMPILE_CACHE=1
// turns it off); the bundle is imported once the cache is on, hence the dynamic import.
import module from 'node:module';

// the shell above found no snapshot for this Node: one is built in the background once this command is done
const snapshotWanted = process.env.EDGESIM_SNAPSHOT_ID;
delete process.env.EDGESIM_SNAPSHOT_ID;

module.enableCompileCache?.();
const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv);
if (snapshotWanted !== undefined) (await import('../dist/bundle/snapshot-build.js')).requestSnapshot(snapshotWanted);
