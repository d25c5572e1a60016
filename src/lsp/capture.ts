// Which capture a document's rules are shown against, in this order: a comment in the document
// (`# edgesim: capture=PATH`, relative to the document), the editor's setting (`edgesim.capture`,
// relative to the workspace), or a suite's capture case: the suite itself, or a suite in the
// document's folder whose `config:` names the document (paths relative to the suite, as
// `edgesim test` reads them). A suite's case (`capture: [a.pcap, b.pcap]`) and the setting may name
// several captures: they are read as one, merged by time, as `replay` and `test` read them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { isObject } from '../config/inputs/document.js';
import type { DocumentModel } from './document.js';

export interface CaptureChoice {
  /** one capture, or several merged by time */
  files: string[];
  /** where the choice comes from, for the lens's words */
  from: 'comment' | 'setting' | 'suite';
}

/** A capture value (one path, or a list of paths) as a list; undefined for anything else. */
function captureFiles(value: unknown): string[] | undefined {
  if (typeof value === 'string' && value !== '') return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v !== '')) return value as string[];
  return undefined;
}

/** The first `capture:` case of a parsed suite (its captures), resolved against its folder. */
function suiteCapture(suite: unknown, dir: string): string[] | undefined {
  if (!isObject(suite) || !Array.isArray(suite.cases)) return undefined;
  for (const c of suite.cases) {
    const files = isObject(c) ? captureFiles(c.capture) : undefined;
    if (files !== undefined) return files.map((f) => path.resolve(dir, f));
  }
  return undefined;
}

/** Whether a suite's `config:` (a file or a list of files, relative to the suite) names `file`. */
function names(suite: Record<string, unknown>, dir: string, file: string): boolean {
  const config = suite.config;
  const files = typeof config === 'string' ? [config] : Array.isArray(config) ? config.filter((c): c is string => typeof c === 'string') : [];
  return files.some((f) => path.resolve(dir, f) === file);
}

/** The most suites of a folder read to find one that names a configuration. */
const MOST_SUITES = 50;

function suiteNaming(file: string): string[] | undefined {
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
export function captureFor(model: DocumentModel, setting: { capture?: string | string[]; root?: string }): CaptureChoice | undefined {
  const dir = path.dirname(model.file);
  if (model.capture !== null) return { files: [path.resolve(dir, model.capture.value)], from: 'comment' };
  const set = captureFiles(setting.capture);
  if (set !== undefined) return { files: set.map((f) => path.resolve(setting.root ?? dir, f)), from: 'setting' };
  if (model.kind === 'suite') {
    let suite: unknown;
    try {
      suite = parse(model.text);
    } catch {
      return undefined;
    }
    const capture = suiteCapture(suite, dir);
    return capture === undefined ? undefined : { files: capture, from: 'suite' };
  }
  const named = suiteNaming(model.file);
  return named === undefined ? undefined : { files: named, from: 'suite' };
}
