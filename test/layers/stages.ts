// Every stage loaded anew with header fields added to a layer first: addLayerField must act before any
// stage reads the layers, so the modules are reset (vi.resetModules) and each stage imported after it.
// test-only-field.test.ts adds tcp.urgent_pointer this way, field-shapes.test.ts three fields of the
// shapes no product field has.
import { vi } from 'vitest';
import type { LayerField } from '../../src/layers/index.js';

/** The stages, each module loaded after `fields` were added to `layer`. */
export async function stagesWith(layer: string, fields: readonly LayerField[]) {
  vi.resetModules();
  const layers = await import('../../src/layers/index.js');
  for (const f of fields) layers.addLayerField(layer, f);
  return {
    layers,
    registry: await import('../../src/field-registry.js'),
    reference: await import('../../src/fields/reference.js'),
    lang: await import('../../src/lang/index.js'),
    render: await import('../../src/fields/render.js'),
    decode: await import('../../src/capture/decode/link-up.js'),
    record: await import('../../src/capture/record.js'),
    frame: await import('../../src/capture/frame.js'),
    packet: await import('../../src/lib/packet.js'),
    builder: await import('../../src/suite/packet-builder.js'),
    firewall: await import('../../src/firewall/firewall.js'),
    fast: await import('../../src/fastpath/fast-firewall.js'),
    path: await import('../../src/sim/compiled-path.js'),
    run: await import('../../src/sim/run.js'),
    decide: await import('../../src/sim/decide-frame.js'),
    lane: await import('../../src/sim/lane.js'),
    pinning: await import('../../src/analysis/pinning.js'),
    witness: await import('../../src/analysis/witness.js'),
  };
}

export type Stages = Awaited<ReturnType<typeof stagesWith>>;
