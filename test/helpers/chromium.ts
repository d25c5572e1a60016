// Debian's headless Chromium driven through playwright-core (which brings no browser of its own):
// a fresh profile per launch, and every background service that could reach the network turned off,
// so a page that asks for anything beyond its own file shows up as a request in the test.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function openBrowser(viewport = { width: 1200, height: 900 }): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'edgesim-chromium-'));
  const remove = () => rmSync(profile, { recursive: true, force: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport });
  } catch (e) {
    remove(); // no browser to close later: remove the profile now
    throw e;
  }
  return {
    context,
    async close() {
      try {
        await context.close();
      } finally {
        remove(); // also when closing fails
      }
    },
  };
}
