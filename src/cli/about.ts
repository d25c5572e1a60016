// Version and attributions, shown by `--help` and `edgesim about`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const VERSION: string = (require('../../package.json') as { version: string }).version;

export function aboutText(): string {
  return [
    'Data attributions:',
    '  GeoIP country data: geo-whois-asn-country from the ip-location-db project',
    '  (https://github.com/sapics/ip-location-db), licensed CC BY 4.0; it contains',
    '  information from the Number Resource Organization (NRO) and the regional internet registries.',
  ].join('\n');
}
