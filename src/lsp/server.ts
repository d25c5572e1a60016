// `edgesim lsp --stdio`: the Rules language in any editor, over the Language Server Protocol 3.17
// (vscode-languageserver). Documents are read on this thread (cheap: parsing the host format and the
// changed expressions); lint of a whole configuration, what the analysis proves of a rule, and a
// capture's traffic run on analysis threads, so typing in a 1,000-rule file is never held up by them:
// the engine's errors are published first, lint's findings when it has answered for that version
// (a lint made stale by typing is stopped). Diagnostics are pushed (textDocument/publishDiagnostics),
// after a pause in typing (`debounceMs`); `edgesim/settle` answers once the published diagnostics
// are final for a version (for clients and tests that wait for them).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind,
  CodeLens,
  CompletionItemKind,
  createConnection,
  DiagnosticSeverity,
  InlayHint,
  MarkupKind,
  SemanticTokensBuilder,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { PinnedRule } from '../analysis/index.js';
import { LIMITS } from '../config/resources.js';
import { groupDigits } from '../numbers.js';
import { captureFor } from './capture.js';
import type { ConfigurationText, LintOutcome, LintSettings } from './check/configuration.js';
import { documentProblems, linted, type Linted } from './check/diagnostics.js';
import type { Problem } from './check/problems.js';
import type { TrafficOutcome } from './check/traffic.js';
import { configurationKind, isHcl, readDocument, readHcl, rulesScheme, type DocumentModel } from './document.js';
import { actionsAt } from './features/code-actions.js';
import { completionsAt, type ItemKind } from './features/completion.js';
import { hoverAt } from './features/hover.js';
import { definitionAt, semanticTokens, symbolsOf, TOKEN_TYPES } from './features/outline.js';
import { patchDocument } from './patch.js';
import { AnalysisWorker, Cancelled } from './worker-client.js';

/** The settings a client may give (initializationOptions, or `edgesim` in workspace/didChangeConfiguration). */
export interface ServerSettings {
  /** a capture to show each rule's traffic against (relative to the workspace), or several merged by time */
  capture?: string | string[];
  /** rules per ruleset the account may hold (lint --max-rules) */
  maxRules?: number;
  /** managed-list feeds replacing the bundled samples (lint --lists) */
  lists?: string;
  /** the pause in typing, in milliseconds, before a document is checked again */
  debounceMs?: number;
}

const DEFAULT_DEBOUNCE_MS = 200;

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint } as const;
const ITEM_KIND: Readonly<Record<ItemKind, CompletionItemKind>> = {
  field: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  keyword: CompletionItemKind.Keyword,
  operator: CompletionItemKind.Operator,
  value: CompletionItemKind.Value,
  list: CompletionItemKind.Variable,
};

interface Waiter {
  version: number;
  resolve(): void;
}

export class EdgesimServer {
  private readonly documents = new TextDocuments(TextDocument);
  private readonly models = new Map<string, DocumentModel>();
  private readonly lints = new Map<string, Linted>();
  private readonly problems = new Map<string, Problem[]>();
  private readonly traffic = new Map<string, TrafficOutcome>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly waiters = new Map<string, Waiter[]>();
  /** documents whose diagnostics are final for their current version */
  private readonly settledVersions = new Map<string, number>();
  private readonly lintWorker = new AnalysisWorker();
  private readonly queryWorker = new AnalysisWorker();
  private readonly lintQueue = new Map<string, DocumentModel>();
  /** Terraform files being read, by version */
  private readonly hclReads = new Map<string, { version: number; model: Promise<DocumentModel> }>();
  private linting: { uri: string; version: number } | undefined;
  private settings: ServerSettings = {};
  private root: string | undefined;
  private refresh = { codeLens: false, inlayHint: false };

  constructor(
    private readonly connection: Connection,
    /** the command line's settings, which the client's override */
    private readonly defaults: ServerSettings = {},
  ) {
    connection.onInitialize((params) => this.initialize(params));
    connection.onDidChangeConfiguration((change) => {
      const s = (change.settings as { edgesim?: ServerSettings } | undefined)?.edgesim;
      if (s !== undefined) this.settings = { ...this.settings, ...s };
      for (const doc of this.documents.all()) this.schedule(doc.uri, 0);
    });
    this.documents.onDidOpen(({ document }) => this.schedule(document.uri, 0));
    this.documents.onDidChangeContent(({ document }) => this.schedule(document.uri, this.settings.debounceMs ?? DEFAULT_DEBOUNCE_MS));
    this.documents.onDidSave(({ document }) => void this.measureTraffic(document.uri));
    this.documents.onDidClose(({ document }) => this.forget(document.uri));
    connection.onCompletion(async ({ textDocument, position }) => {
      const doc = this.documents.get(textDocument.uri);
      const model = await this.currentModel(textDocument.uri);
      if (doc === undefined || model === undefined) return [];
      return completionsAt(model, doc.offsetAt(position)).map((c) => ({
        label: c.label,
        kind: ITEM_KIND[c.kind],
        detail: c.detail,
        ...(c.documentation === undefined ? {} : { documentation: { kind: MarkupKind.Markdown, value: c.documentation } }),
        textEdit: { range: { start: doc.positionAt(c.start), end: doc.positionAt(c.end) }, newText: c.text },
        filterText: c.label,
      }));
    });
    connection.onHover(async ({ textDocument, position }) => {
      const doc = this.documents.get(textDocument.uri);
      const model = await this.currentModel(textDocument.uri);
      if (doc === undefined || model === undefined) return null;
      const input = this.configurationOf(model);
      const hover = await hoverAt(model, doc.offsetAt(position), async (rule) =>
        input === null ? undefined : this.queryWorker.ask<PinnedRule | undefined>({ op: 'describe', input, settings: this.lintSettings(), path: rule.path }).catch(() => undefined),
      );
      return hover === undefined ? null : { contents: { kind: MarkupKind.Markdown, value: hover.markdown }, range: { start: doc.positionAt(hover.start), end: doc.positionAt(hover.end) } };
    });
    connection.onCodeAction(async ({ textDocument, range }) => {
      const doc = this.documents.get(textDocument.uri);
      const model = await this.currentModel(textDocument.uri);
      if (doc === undefined || model === undefined) return [];
      const problems = this.problems.get(textDocument.uri) ?? [];
      return actionsAt(model, doc.offsetAt(range.start), doc.offsetAt(range.end), problems).map(
        (a): CodeAction => ({
          title: a.title,
          kind: a.kind === 'quickfix' ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite,
          edit: { changes: { [textDocument.uri]: a.edits.map((e) => ({ range: { start: doc.positionAt(e.start), end: doc.positionAt(e.end) }, newText: e.text })) } },
          ...(a.fixes === undefined ? {} : { diagnostics: [this.diagnostic(doc, a.fixes)], isPreferred: (a.fixes.fixes?.length ?? 0) + (a.fixes.removal === undefined ? 0 : 1) === 1 }),
        }),
      );
    });
    connection.onDocumentSymbol(async ({ textDocument }) => {
      const doc = this.documents.get(textDocument.uri);
      const model = await this.currentModel(textDocument.uri);
      if (doc === undefined || model === undefined) return [];
      return symbolsOf(model).map((s) => ({
        name: s.name,
        detail: s.detail,
        kind: s.kind === 'list' ? SymbolKind.Array : s.kind === 'filter' ? SymbolKind.Event : SymbolKind.Function,
        range: { start: doc.positionAt(s.start), end: doc.positionAt(s.end) },
        selectionRange: { start: doc.positionAt(s.selectionStart), end: doc.positionAt(s.selectionEnd) },
      }));
    });
    connection.onDefinition(async ({ textDocument, position }) => {
      const doc = this.documents.get(textDocument.uri);
      const model = await this.currentModel(textDocument.uri);
      if (doc === undefined || model === undefined) return null;
      const at = definitionAt(model, doc.offsetAt(position));
      if (at === undefined) return null;
      if ('file' in at) return { uri: `file://${at.file}`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
      return { uri: textDocument.uri, range: { start: doc.positionAt(at.start), end: doc.positionAt(at.end) } };
    });
    connection.languages.semanticTokens.on(async ({ textDocument }) => {
      const doc = this.documents.get(textDocument.uri);
      const model = await this.currentModel(textDocument.uri);
      const builder = new SemanticTokensBuilder();
      if (doc === undefined || model === undefined) return builder.build();
      for (const t of semanticTokens(model)) {
        const start = doc.positionAt(t.start);
        builder.push(start.line, start.character, t.end - t.start, TOKEN_TYPES.indexOf(t.type), 0);
      }
      return builder.build();
    });
    // the lens's command shows its detail (the VS Code extension registers edgesim.traffic; other clients show the title)
    connection.onCodeLens(async ({ textDocument }) =>
      (await this.trafficLabels(textDocument.uri)).map(({ line, label, detail }) => ({ ...CodeLens.create({ start: { line, character: 0 }, end: { line, character: 0 } }), command: { title: label, command: 'edgesim.traffic', arguments: [detail] } })),
    );
    connection.languages.inlayHint.on(async ({ textDocument }) => (await this.trafficLabels(textDocument.uri)).map(({ end, label, detail }) => ({ ...InlayHint.create(end, ` ${label}`), tooltip: detail, paddingLeft: true })));
    connection.onRequest('edgesim/settle', ({ uri }: { uri: string }) => this.settled(uri));
    this.documents.listen(connection);
  }

  private initialize(params: InitializeParams): InitializeResult {
    const options = params.initializationOptions as { edgesim?: ServerSettings } & ServerSettings | undefined;
    this.settings = { ...this.defaults, ...(options?.edgesim ?? options ?? {}) };
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    this.root = folder?.startsWith('file:') ? fileURLToPath(folder) : undefined;
    const workspace = params.capabilities.workspace;
    this.refresh = { codeLens: workspace?.codeLens?.refreshSupport === true, inlayHint: workspace?.inlayHint?.refreshSupport === true };
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: ['.', '$', '"', ' ', '{'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
        documentSymbolProvider: true,
        definitionProvider: true,
        semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [] }, full: true },
        codeLensProvider: {},
        inlayHintProvider: true,
      },
      serverInfo: { name: 'edgesim' },
    };
  }

  private lintSettings(): LintSettings {
    return { maxRules: this.settings.maxRules ?? LIMITS.rulesPerRuleset, lists: this.settings.lists === undefined ? undefined : path.resolve(this.root ?? '.', this.settings.lists) };
  }

  /** The document as read at its current version; a Terraform file is read asynchronously (its parser is WebAssembly). */
  private async currentModel(uri: string): Promise<DocumentModel | undefined> {
    const doc = this.documents.get(uri);
    if (doc === undefined || !isHcl(uri, doc.languageId)) return this.modelOf(uri);
    const kept = this.models.get(uri);
    if (kept?.version === doc.version) return kept;
    let reading = this.hclReads.get(uri);
    if (reading?.version !== doc.version) {
      reading = { version: doc.version, model: readHcl(uri, doc.version, doc.getText()) };
      this.hclReads.set(uri, reading);
    }
    const model = await reading.model;
    if (this.documents.get(uri)?.version === model.version) this.models.set(uri, model);
    return model;
  }

  /** The document as read at its current version (not a Terraform file: currentModel). */
  private modelOf(uri: string): DocumentModel | undefined {
    const doc = this.documents.get(uri);
    if (doc === undefined) return undefined;
    const kept = this.models.get(uri);
    if (kept?.version === doc.version) return kept;
    const text = doc.getText();
    const model = (kept === undefined ? undefined : patchDocument(kept, text, doc.version)) ?? readDocument(uri, doc.languageId, doc.version, text);
    this.models.set(uri, model);
    return model;
  }

  private configurationOf(model: DocumentModel): ConfigurationText | null {
    const kind = configurationKind(model);
    return kind === null ? null : { text: model.text, file: model.file, kind, scheme: model.kind === 'rules' ? rulesScheme(model.text) : undefined };
  }

  private schedule(uri: string, delay: number): void {
    clearTimeout(this.timers.get(uri));
    this.settledVersions.delete(uri);
    this.timers.set(uri, setTimeout(() => this.check(uri), delay));
  }

  /** Checks the document now: the engine's errors are published at once, lint's findings when it answers. */
  private check(uri: string): void {
    this.timers.delete(uri);
    this.checkNow(uri).catch((err: unknown) => {
      // a document this server cannot read must not end it: it says so and serves the others
      this.connection.console.error(`edgesim: ${uri}: ${(err as Error).message}`);
      this.markSettled(uri, this.documents.get(uri)?.version ?? -1);
    });
  }

  private async checkNow(uri: string): Promise<void> {
    const model = await this.currentModel(uri);
    if (model !== undefined && model.version !== this.documents.get(uri)?.version) return;
    if (model === undefined) return;
    this.publish(model);
    if (this.configurationOf(model) === null) {
      this.markSettled(uri, model.version);
      return;
    }
    this.lintQueue.set(uri, model);
    if (this.linting?.uri === uri) this.lintWorker.cancel();
    this.pump();
  }

  private pump(): void {
    if (this.linting !== undefined) return;
    const [uri, model] = this.lintQueue.entries().next().value ?? [];
    if (uri === undefined || model === undefined) return;
    this.lintQueue.delete(uri);
    this.linting = { uri, version: model.version };
    this.lintWorker
      .ask<LintOutcome>({ op: 'lint', input: this.configurationOf(model)!, settings: this.lintSettings() })
      .then(
        (outcome) => {
          this.lints.set(uri, linted(model, outcome));
          const now = this.modelOf(uri);
          if (now !== undefined) this.publish(now);
          if (now?.version === model.version && !this.lintQueue.has(uri) && !this.timers.has(uri)) this.markSettled(uri, model.version);
        },
        (err: unknown) => {
          if (!(err instanceof Cancelled)) this.connection.console.error(`edgesim: lint of ${uri} failed: ${(err as Error).message}`);
          if (!(err instanceof Cancelled) && this.modelOf(uri)?.version === model.version) this.markSettled(uri, model.version);
        },
      )
      .finally(() => {
        this.linting = undefined;
        this.pump();
      });
  }

  private diagnostic(doc: TextDocument, p: Problem): Diagnostic {
    return {
      range: { start: doc.positionAt(p.start), end: doc.positionAt(p.end) },
      severity: SEVERITY[p.severity],
      code: p.code,
      source: 'edgesim',
      message: p.message,
      ...(p.related === undefined ? {} : { relatedInformation: p.related.map((r) => ({ location: { uri: doc.uri, range: { start: doc.positionAt(r.start), end: doc.positionAt(r.end) } }, message: r.message })) }),
    };
  }

  private publish(model: DocumentModel): void {
    const doc = this.documents.get(model.uri);
    if (doc === undefined) return;
    const problems = documentProblems(model, this.lints.get(model.uri), this.configurationOf(model) !== null);
    this.problems.set(model.uri, problems);
    void this.connection.sendDiagnostics({ uri: model.uri, version: model.version, diagnostics: problems.map((p) => this.diagnostic(doc, p)) });
  }

  private markSettled(uri: string, version: number): void {
    this.settledVersions.set(uri, version);
    const waiting = this.waiters.get(uri) ?? [];
    this.waiters.set(uri, waiting.filter((w) => w.version > version));
    for (const w of waiting) if (w.version <= version) w.resolve();
  }

  /** Resolves once the diagnostics published for the document's current version are final. */
  private settled(uri: string): Promise<{ version: number }> {
    const doc = this.documents.get(uri);
    if (doc === undefined) return Promise.resolve({ version: -1 });
    const version = doc.version;
    if ((this.settledVersions.get(uri) ?? -1) >= version) return Promise.resolve({ version });
    return new Promise((resolve) => {
      const list = this.waiters.get(uri) ?? [];
      list.push({ version, resolve: () => resolve({ version }) });
      this.waiters.set(uri, list);
    });
  }

  private async measureTraffic(uri: string): Promise<void> {
    const model = await this.currentModel(uri);
    const input = model === undefined ? null : this.configurationOf(model);
    if (model === undefined || input === null) return;
    const capture = captureFor(model, { capture: this.settings.capture, root: this.root });
    if (capture === undefined) {
      this.traffic.delete(uri);
      return;
    }
    try {
      const outcome = await this.queryWorker.ask<TrafficOutcome>({ op: 'traffic', input, settings: this.lintSettings(), captures: capture.files });
      this.traffic.set(uri, outcome);
      if (outcome.failure !== null) this.connection.console.warn(`edgesim: traffic of ${uri}: ${outcome.failure}`);
    } catch (err) {
      this.connection.console.error(`edgesim: traffic of ${uri} failed: ${(err as Error).message}`);
      return;
    }
    if (this.refresh.codeLens) void this.connection.sendRequest('workspace/codeLens/refresh');
    if (this.refresh.inlayHint) void this.connection.languages.inlayHint.refresh();
    void this.connection.sendNotification('edgesim/traffic', { uri });
  }

  /** Each rule's traffic in words, where the rule is now. */
  private async trafficLabels(uri: string): Promise<Array<{ line: number; end: { line: number; character: number }; label: string; detail: string }>> {
    const doc = this.documents.get(uri);
    const model = await this.currentModel(uri);
    const outcome = this.traffic.get(uri);
    if (doc === undefined || model === undefined || outcome === undefined || outcome.failure !== null) return [];
    const sites = new Map(model.rules.map((r) => [JSON.stringify(r.path), r]));
    return outcome.rules.flatMap((t) => {
      const site = sites.get(JSON.stringify(t.path));
      if (site === undefined) return [];
      const ns = t.ns_per_evaluation < 10 ? t.ns_per_evaluation.toFixed(1) : groupDigits(Math.round(t.ns_per_evaluation));
      const label = `${groupDigits(t.hits)} hits · ${groupDigits(t.drops)} dropped · ${ns} ns/eval`;
      const detail = `${t.ref} on ${outcome.captures.map((c) => path.basename(c)).join(' + ')} (${groupDigits(outcome.packets)} packets): evaluated ${groupDigits(t.evaluations)} times, matched ${groupDigits(t.hits)}, decided ${groupDigits(t.decided)}`;
      return [{ line: doc.positionAt(site.start).line, end: doc.positionAt(site.expression.end), label, detail }];
    });
  }

  private forget(uri: string): void {
    clearTimeout(this.timers.get(uri));
    for (const map of [this.models, this.lints, this.problems, this.traffic, this.timers, this.settledVersions, this.lintQueue, this.hclReads] as Array<Map<string, unknown>>) map.delete(uri);
    for (const w of this.waiters.get(uri) ?? []) w.resolve();
    this.waiters.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** Ends the analysis threads. */
  close(): void {
    this.lintWorker.cancel();
    this.queryWorker.cancel();
  }
}

/** Runs the server over a pair of streams (stdio) until the client ends it. */
export function runServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, defaults: ServerSettings = {}): Promise<void> {
  const connection = createConnection(input, output);
  const server = new EdgesimServer(connection, defaults);
  return new Promise((resolve) => {
    connection.onExit(() => {
      server.close();
      resolve();
    });
    connection.onShutdown(() => server.close());
    connection.listen();
  });
}
