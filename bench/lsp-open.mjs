// An editor opening a file with the language server started cold, as one process for `farm-bench`:
// starts the built `edgesim lsp --stdio`, initializes it, opens FILE (JSON), waits for its first
// diagnostics (the engine's), or with `settled` for the final ones (lint's findings too, asked with
// edgesim/settle), then shuts the server down. The editor's pause before checking is set to 0.
//   node bench/lsp-open.mjs FILE [settled]
// The 1,000-rule file of docs/lsp.md: `npx tsx bench/lsp-open-file.ts /tmp/big.json`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [file, until] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: node bench/lsp-open.mjs FILE [settled]');
const bin = fileURLToPath(new URL('../bin/edgesim.js', import.meta.url));
const server = spawn(process.execPath, [bin, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
  server.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
};
const uri = pathToFileURL(file).href;
let bytes = Buffer.alloc(0);
let done = false;
server.stdout.on('data', (chunk) => {
  bytes = Buffer.concat([bytes, chunk]);
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/.exec(bytes.subarray(0, end).toString('ascii'))[1]);
    if (bytes.length < end + 4 + length) return;
    const message = JSON.parse(bytes.subarray(end + 4, end + 4 + length).toString('utf8'));
    bytes = bytes.subarray(end + 4 + length);
    if (message.id === 1) {
      send({ method: 'initialized', params: {} });
      send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'json', version: 1, text: readFileSync(file, 'utf8') } } });
      if (until === 'settled') send({ id: 2, method: 'edgesim/settle', params: { uri } });
    }
    const first = until !== 'settled' && message.method === 'textDocument/publishDiagnostics';
    if (!done && (first || message.id === 2)) {
      done = true;
      send({ id: 3, method: 'shutdown' });
    }
    if (message.id === 3) send({ method: 'exit' });
  }
});
server.on('exit', (code) => process.exit(code ?? 0));
send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { debounceMs: 0 } } });
