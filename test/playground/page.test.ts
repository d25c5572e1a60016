// The playground in a real browser (Debian's Chromium through playwright-core), against a real
// `edgesim serve` holding the demo configuration: typing an expression gives the engine's message and
// hint (as `edgesim validate` prints them) and highlighting, completion offers the account's list and
// writes it, and a packet pasted from `edgesim inspect` is traced stage by stage as `edgesim trace`
// traces it. The page asks nothing of any other origin, and its policy runs no script it did not list.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, runCliAsync } from '../helpers/cli.js';
import { openBrowser, type Browser } from '../helpers/chromium.js';
import { tempDir } from '../helpers/temp-dir.js';

let serve: ChildProcess;
let api: string;
let origin: string;
let browser: Browser;
/** what the server wrote on standard error: an internal failure of a playground call would be here */
const serveErrors: string[] = [];

beforeAll(async () => {
  serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--in-memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
  serve.stderr!.on('data', (b: Buffer) => serveErrors.push(b.toString('utf8')));
  api = await new Promise<string>((resolve) => createInterface({ input: serve.stdout! }).once('line', resolve));
  origin = new URL(api).origin;
  const imported = await runCliAsync(['import', 'examples/demo-snapshot.json', '--api', api, '--account', 'demo', '--token', 'playground']);
  expect(imported.status, imported.stderr).toBe(0);
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  serve?.kill('SIGTERM');
});

async function openPage() {
  const page = await browser.context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  const response = await page.goto(`${origin}/playground`, { waitUntil: 'load' });
  return { page, problems, requests, response: response! };
}

describe('the playground in headless Chromium', () => {
  it('from typing an expression to reading the trace of a packet through the account\'s configuration', async () => {
    const { page, problems, requests, response } = await openPage();
    expect(response.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'self'/);
    const editor = page.locator('#expression');

    // a bare protocol name: the engine's message and its hint, as validate prints them, under the editor
    await editor.fill('');
    await editor.pressSequentially('ip.proto == tcp');
    // (the page checks as it is typed: wait for the check of the whole text)
    await page.locator('#problems li.error', { hasText: /^ip\.proto == tcp$/m }).waitFor();
    const shown = await page.locator('#problems li').allTextContents();
    expect(`${shown.join('\n')}\n`).toBe(runCli(['validate', 'ip.proto == tcp']).stdout);
    expect(await page.locator('#status').textContent()).toBe('invalid');
    // the bytes the engine's caret is under are underlined
    expect(await page.locator('#highlight .s-error').allTextContents()).toEqual(['tc']);

    // completion after `$`: the account's list, written by Enter
    await editor.fill('');
    await editor.pressSequentially('tcp.dstport == 22 and ip.src in $');
    await page.locator('#completion li .label', { hasText: /^partners$/ }).waitFor();
    const labels = await page.locator('#completion li .label').allTextContents();
    expect(labels[0]).toBe('partners');
    expect(labels).toContain('svc.botnetcc');
    await editor.press('Enter');
    expect(await editor.inputValue()).toBe('tcp.dstport == 22 and ip.src in $partners');
    await page.locator('#status', { hasText: /^valid$/ }).waitFor();
    expect(await page.locator('#problems li').count()).toBe(0);
    // highlighted from the parser's own tokens
    await page.locator('#highlight .t-variable').waitFor();
    expect(await page.locator('#highlight .t-property').allTextContents()).toEqual(['tcp.dstport', 'ip.src']);
    expect(await page.locator('#highlight .t-variable').allTextContents()).toEqual(['$partners']);
    expect(await page.locator('#highlight .t-keyword').allTextContents()).toEqual(['and']);

    // a packet pasted from `edgesim inspect` (frame 5 of the demo: SSH from the internet)
    const inspected = runCli(['inspect', 'examples/demo.pcap']).stdout.split('\n')[4]!;
    await page.locator('#packet').fill(inspected);
    await page.locator('#trace-button').click();
    await page.locator('#verdict').waitFor();
    const dir = tempDir('edgesim-playground-');
    const packetFile = path.join(dir, 'packet.json');
    writeFileSync(packetFile, inspected);
    const cli = JSON.parse(runCli(['trace', '--config', path.join(ROOT, 'examples/demo-snapshot.json'), '--packet', packetFile, '--json']).stdout) as {
      verdict: string;
      stage: string;
      rule: string;
      steps: Array<{ step_name: string; reached: boolean; decided: boolean; trace?: Array<{ step_name: string; tried: boolean; matched: boolean | null; decided: boolean }> }>;
    };
    expect(await page.locator('#verdict').textContent()).toBe(`${cli.verdict} by ${cli.stage} (${cli.rule})`);
    // stage by stage, as the command traces it
    const stages = await page.locator('#stages tr[data-stage]').evaluateAll((rows) => rows.map((r) => [...r.children].slice(0, 3).map((c) => c.textContent)));
    expect(stages).toEqual(cli.steps.map((s) => [s.step_name, s.reached ? 'yes' : 'no', s.decided ? 'yes' : 'no']));
    const rules = await page.locator('#rules tr[data-rule]').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    const firewall = cli.steps.find((s) => s.step_name === 'firewall')!.trace!;
    expect(rules.map((r) => [r[0], r[2], r[3], r[4]])).toEqual(firewall.map((s) => [s.step_name, s.tried ? 'yes' : 'no', s.matched === null ? '–' : s.matched ? 'yes' : 'no', s.decided ? 'yes' : 'no']));
    // and the expression written above, on the same packet
    expect(await page.locator('#matches').textContent()).toBe('your expression does not match this packet');

    expect(problems).toEqual([]);
    expect(serveErrors.join('')).not.toContain('edgesim serve:');
    expect(requests.every((r) => r.startsWith(origin))).toBe(true);
    await page.close();
  });

  it('runs no script its policy does not list: an injected handler or script element does nothing', async () => {
    const { page } = await openPage();
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<img src="data:," onload="window.pwned = 1" onerror="window.pwned = 2"><div id="x" tabindex="0" onfocus="window.pwned = 3"></div>');
      const s = document.createElement('script');
      s.textContent = 'window.pwned = 4';
      document.body.appendChild(s);
      (document.getElementById('x') as HTMLElement).focus();
    });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    // the page's own script runs all the same: the default expression was checked
    await page.locator('#status', { hasText: /^valid$/ }).waitFor();
    await page.close();
  });
});
