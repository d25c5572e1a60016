// Several files as one configuration, merged by resource: each top-level key of the snapshot
// (rulesets, lists, tcp_protection_status, prefixes, ...) comes from the one file that has it, so
// rulesets can come from Terraform and Advanced TCP Protection, which has no Terraform resource,
// from a snapshot beside it. The same resource in two files is an error naming both.
import { UserError } from '../../errors.js';
import { NOWHERE, type RuleLocator } from '../location.js';
import type { Snapshot } from '../snapshot.js';

export interface ConfigurationPart {
  file: string;
  snapshot: Snapshot;
  locate: RuleLocator;
}

export function mergeParts(parts: readonly ConfigurationPart[]): { snapshot: Snapshot; locate: RuleLocator; rulesetsFile: string | undefined } {
  const merged: Record<string, unknown> = {};
  const owner = new Map<string, ConfigurationPart>();
  for (const part of parts) {
    for (const [key, value] of Object.entries(part.snapshot)) {
      const first = owner.get(key);
      if (first !== undefined) throw new UserError(`${key} is given in both ${first.file} and ${part.file}: give each resource in one file`);
      owner.set(key, part);
      merged[key] = value;
    }
  }
  const rulesets = owner.get('rulesets');
  return { snapshot: merged as Snapshot, locate: rulesets?.locate ?? NOWHERE, rulesetsFile: rulesets?.file };
}
