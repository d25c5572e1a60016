// Durable files for account state. A write goes to a temporary file in the same directory, is
// fsynced, renamed over the old file, and the directory is fsynced: after a crash at any point the
// file holds either the old state or the new one, never a torn mix. An append (the list-items log)
// is fsynced before it is acknowledged; a crash can only tear its last line. A crash between creating the
// temporary file and the rename leaves it behind; `removeTemporaryFiles` clears those on start-up.
import { access, constants, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

let sequence = 0;

const TEMPORARY = /^\..+\.tmp$/;

/** Replaces `file` with `text` atomically and durably (its directory must exist). */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
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

/** Appends `text` to `file` (created if missing) and makes it durable before resolving. */
export async function appendFileDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a', 0o600);
  let created: boolean;
  try {
    created = (await handle.stat()).size === 0;
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (!created) return;
  const dirHandle = await open(path.dirname(file), 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}

/**
 * Creates `dir` and its missing parents, and checks it can be written. Not `mkdir -p` through Node's
 * `recursive` option: where mkdir answers ENOENT for a parent that exists (procfs: `/proc/nope`), that
 * loops forever; this walks up once and reports the error.
 */
export async function makeWritableDirectory(dir: string): Promise<void> {
  await makeDirectory(path.resolve(dir));
  await access(dir, constants.W_OK);
}

async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if ((await stat(dir)).isDirectory()) return;
      throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR' });
    }
    const parent = path.dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw err;
  }
  await makeDirectory(path.dirname(dir));
  try {
    await mkdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Removes the temporary files an interrupted `writeFileAtomic` left in `dir`; returns their names. */
export async function removeTemporaryFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => TEMPORARY.test(name));
  for (const name of names) await unlink(path.join(dir, name));
  return names;
}
