// Durable files for account state. A write goes to a temporary file in the same directory, is
// fsynced, renamed over the old file, and the directory is fsynced: after a crash at any point the
// file holds either the old state or the new one, never a torn mix.
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

let sequence = 0;

/** Replaces `file` with `text` atomically and durably. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++sequence}.tmp`);
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}

/** The file's text, or undefined when it does not exist. */
export async function readFileIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
