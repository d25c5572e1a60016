// A damaged installation (the HCL grammar's WebAssembly missing): reading a plan still works, its
// rules named by their Terraform addresses, and a note says the .tf files could not be read — never
// an internal error.
import { describe, expect, it, vi } from 'vitest';
import { readConfiguration } from '../../../src/config/inputs/index.js';

vi.mock('../../../src/config/terraform-source/hcl-parser.js', async (original) => ({
  ...(await original<typeof import('../../../src/config/terraform-source/hcl-parser.js')>()),
  readHcl: () => Promise.reject(new Error("ENOENT: no such file or directory, open 'datasets/hcl/tree-sitter-terraform.wasm'")),
}));

describe('without the HCL parser', () => {
  it('names the rules by address and says why', async () => {
    const file = 'test/config/terraform-source/fixtures/legacy-state/state.json';
    const read = await readConfiguration([{ file }], { terraformSources: {} });
    expect(read.locate(0, 2)).toEqual({ file, address: 'module.edge.cloudflare_magic_firewall_ruleset.edge rules[2]' });
    expect(read.notes).toContain("the .tf files could not be read (ENOENT: no such file or directory, open 'datasets/hcl/tree-sitter-terraform.wasm'); rules are named by their Terraform addresses");
  });
});
