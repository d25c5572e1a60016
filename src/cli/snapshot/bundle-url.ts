// Injected into the start-up snapshot's bundle (snapshot-entry.cjs, CommonJS) as `import.meta.url`,
// which CommonJS lacks: the bundle's own file, in dist/bundle/ as the ES module bundle's files are, so
// paths made from it (the datasets, package.json, the modules required at run time) are the same.
import { pathToFileURL } from 'node:url';

export const __edgesimUrl: string = pathToFileURL(__filename).href;
