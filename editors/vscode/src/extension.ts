// The VS Code side of edgesim's language server: starts the server bundled in the extension
// (server/bin/edgesim.js, the edgesim package itself) with a Node of 20.19 or newer found on PATH, or
// the one the settings name, and connects VS Code's language client to it over stdio. The documents
// it serves: `.rules` files, JSON and YAML (configurations, vendor responses, suites; the server
// checks only what holds expressions), Terraform files.
import * as path from 'node:path';
import { commands, window, workspace, type ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

function settings() {
  const c = workspace.getConfiguration('edgesim');
  return { capture: c.get<string | string[]>('capture') || undefined, maxRules: c.get<number>('maxRules'), lists: c.get<string>('lists') || undefined, debounceMs: c.get<number>('debounceMs') };
}

export async function activate(context: ExtensionContext): Promise<void> {
  const config = workspace.getConfiguration('edgesim');
  const server = config.get<string>('serverPath') || context.asAbsolutePath(path.join('server', 'bin', 'edgesim.js'));
  const node = config.get<string>('nodePath') || 'node';
  const run = { command: node, args: [server, 'lsp'], transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: 'edgesim-rules' },
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'jsonc' },
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'terraform' },
      { scheme: 'file', pattern: '**/*.tf' },
    ],
    initializationOptions: { edgesim: settings() },
    synchronize: { configurationSection: 'edgesim' },
  };
  client = new LanguageClient('edgesim', 'edgesim', serverOptions, clientOptions);
  // the traffic lenses' command: the figures in words
  context.subscriptions.push(commands.registerCommand('edgesim.traffic', (detail: string) => window.showInformationMessage(detail)));
  await client.start();
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
