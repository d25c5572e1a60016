// The HTTP framework of `edgesim serve`, for the start-up snapshot's bundle (snapshot-entry.cjs, where
// it stands in for `fastify`): required from node_modules when serve first loads the API, so the
// snapshot does not carry a framework most commands never use.
import { createRequire } from 'node:module';

export default createRequire(import.meta.url)('fastify') as typeof import('fastify').default;
