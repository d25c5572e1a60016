// Which capture a document's rules are shown against, in this order: a comment in the document
// (`# edgesim: capture=PATH`, relative to the document), the editor's setting (`edgesim.capture`,
// relative to the workspace), or a suite's capture case: the suite itself, or a suite in the
// document's folder whose `config:` names the document (paths relative to the suite, as
// `edgesim test` reads them).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { isObject } from '../config/inputs/document.js';
import type { DocumentModel } from './document.js';

export interface CaptureChoice {
  file: string;
  /** where the choice comes from, for the lens's words */
  from: 'comment' | 'setting' | 'suite';
}

/** The first `capture:` case of a parsed suite, resolved against its folder. */
function suiteCapture(suite: unknown, dir: string): string | undefined {
  if (!isObject(suite) || !Array.isArray(suite.cases)) return undefined;
  const c = suite.cases.find((x: unknown) => isObject(x) && typeof x.capture === 'string') as { capture: string } | undefined;
  return c === undefined ? undefined : path.resolve(dir, c.capture);
}

/** Whether a suite's `config:` (a file or a list of files, relative to the suite) names `file`. */
function names(suite: Record<string, unknown>, dir: string, file: string): boolean {
  const config = suite.config;
  const files = typeof config === 'string' ? [config] : Array.isArray(config) ? config.filter((c): c is string => typeof c === 'string') : [];
  return files.some((f) => path.resolve(dir, f) === file);
}

/** The most suites of a folder read to find one that names a configuration. */
const MOST_SUITES = 50;

function suiteNaming(file: string): string | undefined {
  const dir = path.dirname(file);
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((f) => /\.ya?ml$/i.test(f)).slice(0, MOST_SUITES);
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    try {
      const suite: unknown = parse(readFileSync(path.join(dir, entry), 'utf8'));
      if (isObject(suite) && names(suite, dir, file)) {
        const capture = suiteCapture(suite, dir);
        if (capture !== undefined) return capture;
      }
    } catch {
      // not a suite this can read: the next one
    }
  }
  return undefined;
}

/** The capture a document's rules are shown against, if one is named. */
export function captureFor(model: DocumentModel, setting: { capture?: string; root?: string }): CaptureChoice | undefined {
  const dir = path.dirname(model.file);
  if (model.capture !== null) return { file: path.resolve(dir, model.capture.value), from: 'comment' };
  if (setting.capture !== undefined && setting.capture !== '') return { file: path.resolve(setting.root ?? dir, setting.capture), from: 'setting' };
  if (model.kind === 'suite') {
    let suite: unknown;
    try {
      suite = parse(model.text);
    } catch {
      return undefined;
    }
    const capture = suiteCapture(suite, dir);
    return capture === undefined ? undefined : { file: capture, from: 'suite' };
  }
  const named = suiteNaming(model.file);
  return named === undefined ? undefined : { file: named, from: 'suite' };
}
