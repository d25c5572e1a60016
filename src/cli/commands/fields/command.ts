// `edgesim fields [NAME]`: the firewall-phase fields a rule can test, with type, unit and meaning
// (what edgesim's decoder puts in each), as a table or --json; NAME narrows it to a field and the
// fields under it (`tcp.flags`).
import type { Command } from 'commander';
import type { FieldsFlags } from './action.js';

export function register(program: Command): void {
  program
    .command('fields')
    .description('list the fields a firewall rule can test: type, unit, meaning')
    .argument('[name]', 'only this field and the fields under it, e.g. tcp.flags')
    .option('--json', 'print the list as JSON: [{name, type, unit, meaning}]')
    .addHelpText(
      'after',
      `
Examples:
  edgesim fields
  edgesim fields ip.len
  edgesim fields tcp.flags
  edgesim fields --json | jq -r '.[] | select(.type == "Bool") | .name'`,
    )
    .action(async (name: string | undefined, flags: FieldsFlags) => (await import('./action.js')).run(name, flags));
}
