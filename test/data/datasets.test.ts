import { describe, expect, it } from 'vitest';
import { readDataset } from '../../src/data/datasets.js';
import { DataError } from '../../src/data/errors.js';

describe('bundled datasets', () => {
  it('reads a file the installation ships', () => {
    expect(JSON.parse(readDataset('colos.json'))).toHaveProperty('colos');
  });

  it('names a missing one in a DataError (a damaged installation), not a bare error code', () => {
    const read = () => readDataset('no-such-table.json');
    expect(read).toThrow(DataError);
    expect(read).toThrow(/datasets\/no-such-table\.json: cannot read edgesim's bundled dataset \(no such file\); reinstall edgesim$/);
  });
});
