// Terraform resource addresses as `terraform show -json` writes them:
// `module.fw["prod"].module.inner[0].cloudflare_ruleset.mt["eu"]` is the resource `cloudflare_ruleset.mt`
// of the module call `inner` inside the module call `fw`; the instance keys (for_each, count) name
// instances of one block, so they are set aside to find the block.

export interface ResourceAddress {
  /** the module calls from the root, without instance keys: ['fw', 'inner'] */
  modules: string[];
  type: string;
  name: string;
}

/** The length of an instance key (`["a.b"]`, `[0]`) starting at `at`, 0 when there is none. */
function keyLength(address: string, at: number): number {
  if (address[at] !== '[') return 0;
  let i = at + 1;
  if (address[i] === '"') {
    for (i++; i < address.length && address[i] !== '"'; i++) if (address[i] === '\\') i++;
    i++;
  }
  const close = address.indexOf(']', i);
  return close < 0 ? address.length - at : close + 1 - at;
}

/** The parts of a managed resource's address; undefined for what is not one (a data source, a broken address). */
export function parseAddress(address: string): ResourceAddress | undefined {
  const modules: string[] = [];
  let at = 0;
  for (;;) {
    const m = /^module\.([A-Za-z_][\w-]*)/.exec(address.slice(at));
    if (m === null) break;
    modules.push(m[1]!);
    at += m[0].length;
    at += keyLength(address, at);
    if (address[at] !== '.') return undefined;
    at++;
  }
  const r = /^([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)/.exec(address.slice(at));
  if (r === null || r[1] === 'data') return undefined;
  const rest = at + r[0].length;
  if (rest + keyLength(address, rest) !== address.length) return undefined;
  return { modules, type: r[1]!, name: r[2]! };
}
