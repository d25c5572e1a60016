// A minimal LSP client over the built `edgesim lsp --stdio` (bin/edgesim.js), speaking JSON-RPC as
// an editor does (vscode-jsonrpc's message connection, which vscode-languageserver re-exports): it opens and edits
// documents, collects the diagnostics the server publishes, and waits for them to be final
// (`edgesim/settle`). Neovim's own client drives the same server in test/lsp/neovim.test.ts.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type Diagnostic, type MessageConnection, type PublishDiagnosticsParams } from 'vscode-languageserver/node.js';
import { BIN, ROOT } from './cli.js';

export class LspClient {
  readonly diagnostics = new Map<string, { version?: number; diagnostics: Diagnostic[] }>();
  private readonly versions = new Map<string, number>();
  readonly stderr: string[] = [];
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  private readonly publishWaiters: Array<{ uri: string; version: number; resolve(d: Diagnostic[]): void }> = [];

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly connection: MessageConnection,
  ) {}

  /** Starts the server (`bin`: the edgesim command) and initializes it; `settings` are its initializationOptions. */
  static async start(settings: object = {}, root = ROOT, args: string[] = [], bin = BIN): Promise<LspClient> {
    const child = spawn(process.execPath, [bin, 'lsp', '--stdio', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new LspClient(child, connection);
    child.stderr.on('data', (b: Buffer) => client.stderr.push(b.toString('utf8')));
    connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      client.diagnostics.set(p.uri, { version: p.version, diagnostics: p.diagnostics });
      for (const w of client.publishWaiters.splice(0)) {
        if (w.uri === p.uri && w.version === p.version) w.resolve(p.diagnostics);
        else client.publishWaiters.push(w);
      }
    });
    connection.onNotification((method, params) => client.notifications.push({ method, params }));
    connection.onRequest(() => null);
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'root' }],
      capabilities: { workspace: { codeLens: { refreshSupport: true }, inlayHint: { refreshSupport: true } }, textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true } } },
      initializationOptions: settings,
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  async open(uri: string, text: string, languageId = 'json'): Promise<void> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Replaces the document's whole text (a new version). */
  async replace(uri: string, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  /** Sends changes of ranges (a new version), as an editor does while typing. */
  async change(uri: string, changes: Array<{ range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string }>): Promise<void> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
  }

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  async save(uri: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
  }

  /** The diagnostics once final for the document's current version. */
  async settled(uri: string): Promise<Diagnostic[]> {
    const { version } = await this.connection.sendRequest<{ version: number }>('edgesim/settle', { uri });
    const published = this.diagnostics.get(uri);
    if (published?.version !== version) throw new Error(`diagnostics of version ${published?.version} published, ${version} settled`);
    return published.diagnostics;
  }

  /** The first diagnostics published for a version of a document (the engine's, before lint's findings may come). */
  published(uri: string, version: number): Promise<Diagnostic[]> {
    const now = this.diagnostics.get(uri);
    if (now?.version === version) return Promise.resolve(now.diagnostics);
    return new Promise((resolve) => this.publishWaiters.push({ uri, version, resolve }));
  }

  /** The document's current version as sent. */
  version(uri: string): number {
    return this.versions.get(uri) ?? 0;
  }

  request<T>(method: string, params: object): Promise<T> {
    return this.connection.sendRequest<T>(method, params);
  }

  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    try {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
    } catch {
      this.child.kill();
    }
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}

/** The offset in `text` of an LSP position (UTF-16 units, as JavaScript strings count). */
export function offsetOf(text: string, pos: { line: number; character: number }): number {
  const lines = text.split('\n');
  let o = 0;
  for (let i = 0; i < pos.line; i++) o += lines[i]!.length + 1;
  return o + pos.character;
}
