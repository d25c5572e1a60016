// `edgesim lsp --stdio`: the language server of the Rules language (diagnostics, completion, hover,
// quick fixes, traffic), for editors; options and help here, the server in src/lsp, loaded when run.
import type { Command } from 'commander';
import { wholeNumberOf } from '../../options.js';
import type { LspFlags } from './action.js';

export function register(program: Command): void {
  program
    .command('lsp')
    .description('run the language server of the Rules language for editors (LSP 3.17 over standard input and output)')
    .option('--stdio', 'speak the protocol over standard input and output (the only transport; editors pass it)')
    .option('--max-rules <n>', 'rules per ruleset the account may hold (too_many_rules past it, as lint --max-rules)', wholeNumberOf('rules'))
    .option('--lists <dir>', 'managed-list feeds (<name>.txt) replacing the bundled samples, as lint --lists')
    .option('--capture <file>', 'a capture to show each rule\'s hits, drops and cost against (the editor\'s edgesim.capture setting overrides it)')
    .addHelpText(
      'after',
      `
The server checks expressions wherever they are written: edgesim snapshots and the vendor API's JSON,
Terraform's JSON and .tf files, octorules YAML, suites (an inline config:), and .rules files (one
expression a line; "# edgesim: scheme=filter" for ATP filters). Diagnostics are the engine's messages and lint's findings,
word for word. "# edgesim: capture=PATH" in a file (or the edgesim.capture setting, or a suite's capture
case) shows each rule's traffic on that capture, recomputed on save. The editor starts the server; see
the README's "The Rules language in your editor" for VS Code, Neovim and other clients.

Examples:
  edgesim lsp --stdio
  nvim: vim.lsp.start_client({ name = 'edgesim', cmd = { 'npx', 'edgesim', 'lsp', '--stdio' } })`,
    )
    .action(async (flags: LspFlags) => (await import('./action.js')).run(flags));
}
