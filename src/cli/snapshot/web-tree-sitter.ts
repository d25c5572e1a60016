// web-tree-sitter (the HCL parser's runtime), for the start-up snapshot's bundle (snapshot-entry.cjs,
// where it stands in for `web-tree-sitter`): required from node_modules when a .tf file is first read,
// so the library finds its WebAssembly beside itself (inlined into the bundle, it would look for it in
// dist/bundle/) and the snapshot does not carry a parser most commands never use.
import { createRequire } from 'node:module';

const treeSitter = createRequire(import.meta.url)('web-tree-sitter') as typeof import('web-tree-sitter');
export const { Parser, Language } = treeSitter;
