// The HCL grammar edgesim ships (datasets/hcl/tree-sitter-terraform.wasm, so that installing edgesim
// runs no install script) is the one of the pinned devDependency @tree-sitter-grammars/tree-sitter-hcl,
// byte for byte: updating it is copying the file after updating the package.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

describe('the shipped HCL grammar', () => {
  it('is the devDependency\'s tree-sitter-terraform.wasm, and its licence is shipped beside it', () => {
    const shipped = readFileSync(path.join(ROOT, 'datasets/hcl/tree-sitter-terraform.wasm'));
    const pinned = readFileSync(path.join(ROOT, 'node_modules/@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm'));
    expect(shipped.equals(pinned)).toBe(true);
    expect(readFileSync(path.join(ROOT, 'datasets/hcl/LICENSE'), 'utf8')).toBe(readFileSync(path.join(ROOT, 'node_modules/@tree-sitter-grammars/tree-sitter-hcl/LICENSE'), 'utf8'));
  });
});
