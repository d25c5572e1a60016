// Regenerates the `countries` table of datasets/colos.json: each ISO 3166-1 country (from tzdata's
// iso3166.tab) goes to the data center nearest (great circle) to the country's representative
// location, which is the first zone tzdata's zone.tab lists for it, or an override below where that
// zone is far from where most people live. Run: npx tsx datasets/tools/build-colos.ts
import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('../', import.meta.url);
const TZ = '/usr/share/zoneinfo';

// [lat, lon] where the first listed zone misrepresents the country, and for the two uninhabited
// territories tzdata gives no zone.
const OVERRIDES: Record<string, [number, number]> = {
  AU: [-33.87, 151.21], // Sydney, not Lord Howe Island
  BR: [-23.55, -46.63], // Sao Paulo, not Fernando de Noronha
  CA: [43.65, -79.38], // Toronto, not St. John's
  RU: [55.76, 37.62], // Moscow, not Kaliningrad
  UA: [50.45, 30.52], // Kyiv, not Simferopol
  UZ: [41.3, 69.24], // Tashkent, not Samarkand
  IN: [28.61, 77.21], // New Delhi, not Kolkata (which is nearer to Dhaka than to any Indian colo)
  DE: [50.11, 8.68], // Frankfurt, near the population centre, not Berlin (nearer to Prague)
  BV: [-54.42, 3.36], // Bouvet Island
  HM: [-53.1, 73.51], // Heard Island and McDonald Islands
};

interface Colo { name: string; lat: number; lon: number }

function rows(file: string): string[][] {
  return readFileSync(`${TZ}/${file}`, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((l) => l.split('\t'));
}

// zone.tab coordinates: ±DDMM±DDDMM or ±DDMMSS±DDDMMSS
function coordinates(text: string): [number, number] {
  const m = /^([+-])(\d{2})(\d{2})(\d{2})?([+-])(\d{3})(\d{2})(\d{2})?$/.exec(text);
  if (!m) throw new Error(`bad zone.tab coordinates ${text}`);
  const part = (sign: string, d: string, min: string, sec = '0') => (sign === '-' ? -1 : 1) * (Number(d) + Number(min) / 60 + Number(sec) / 3600);
  return [part(m[1], m[2], m[3], m[4]), part(m[5], m[6], m[7], m[8])];
}

function distance([lat1, lon1]: [number, number], [lat2, lon2]: [number, number]): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

const doc = JSON.parse(readFileSync(new URL('colos.json', here), 'utf8')) as { colos: Colo[]; countries: Record<string, string> };
const firstZone = new Map<string, [number, number]>();
for (const [code, coords] of rows('zone.tab')) if (!firstZone.has(code)) firstZone.set(code, coordinates(coords));

const countries: Record<string, string> = {};
for (const [code] of rows('iso3166.tab')) {
  const at = OVERRIDES[code] ?? firstZone.get(code);
  if (at === undefined) throw new Error(`no location for ${code}: add an override`);
  let best = doc.colos[0];
  for (const colo of doc.colos) if (distance(at, [colo.lat, colo.lon]) < distance(at, [best.lat, best.lon])) best = colo;
  countries[code] = best.name;
}
doc.countries = countries;
writeFileSync(new URL('colos.json', here), `${JSON.stringify(doc, null, 1)}\n`);
console.log(`${Object.keys(countries).length} countries -> ${new Set(Object.values(countries)).size} data centers`);
