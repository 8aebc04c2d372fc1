import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { closeEmbeddedServer, previousClose, type ClosableChild } from '../../src-main/services/embedded-close';

/**
 * The desktop app's quit path for its embedded server (issue 52, item 7): the server entry main forks
 * (src-main/embedded-server.ts, with Electron's parentPort replaced by a stand-in over Node's IPC channel) is asked to
 * close by a message, on every OS, and the quit waits for it within a bound; the next start then finds a clean
 * close (PostgreSQL's control file says shut down), where a killed server leaves one to recover.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bo-quit-'));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Node's ChildProcess as the quit path sees Electron's utility process. */
const closable = (child: ChildProcess): ClosableChild => ({
  postMessage: (message) => child.send(message as object),
  once: (event, listener) => child.once(event, listener),
  kill: () => child.kill('SIGKILL'),
});

function start(dataDir: string): Promise<{ child: ChildProcess; previousClose: string }> {
  const child = fork(join(root, 'src-main/embedded-server.ts'), [], {
    execArgv: ['--import', 'tsx', '--import', join(root, 'tests/main/parent-port-stand-in.mjs')],
    env: {
      ...process.env,
      BACKOFFICE_DATA_DIR: dataDir,
      BACKOFFICE_MIGRATIONS: join(root, 'src-server/db/migrations'),
      BACKOFFICE_PGLITE_TEMPLATE: inject('pgliteTemplateDir'),
      BACKOFFICE_DEMO: '0',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the embedded server exited (${code}) before it was ready`)));
    child.on('message', (message: { type: string; previousClose?: string; message?: string }) => {
      if (message.type === 'ready') resolve({ child, previousClose: message.previousClose! });
      else reject(new Error(message.message));
    });
  });
}

describe("main's quit path for the embedded server", () => {
  it('closes it by a message, waits for its exit, and the next start finds a clean close', { timeout: 120_000 }, async () => {
    const dataDir = join(work, 'clean');
    const first = await start(dataDir);
    expect(first.previousClose).toBe('new');
    expect(await closeEmbeddedServer(closable(first.child))).toBe('closed');
    expect(first.child.exitCode).toBe(0);
    expect(previousClose(dataDir)).toBe('clean');

    const second = await start(dataDir);
    expect(second.previousClose).toBe('clean');
    expect(await closeEmbeddedServer(closable(second.child))).toBe('closed');
  });

  it('a killed server (what the quit did on Windows) leaves the next start an unclean close to recover', { timeout: 120_000 }, async () => {
    const dataDir = join(work, 'killed');
    const first = await start(dataDir);
    const exit = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exit;
    expect(previousClose(dataDir)).toBe('unclean');
    const second = await start(dataDir);
    expect(second.previousClose).toBe('unclean');
    expect(await closeEmbeddedServer(closable(second.child))).toBe('closed');
    expect(previousClose(dataDir)).toBe('clean');
  });

  it('kills a server that does not close within the bound, so that the quit never hangs', async () => {
    // A server that takes the message and never closes (a close stuck on its database).
    const script = join(work, 'stuck.mjs');
    writeFileSync(script, 'setInterval(() => undefined, 1000);\nprocess.on("message", () => undefined);\n');
    const stuck = fork(script, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.add(stuck);
    const exit = new Promise<NodeJS.Signals | null>((resolve) => stuck.once('exit', (_code, signal) => resolve(signal)));
    expect(await closeEmbeddedServer(closable(stuck), 300)).toBe('killed');
    expect(await exit).toBe('SIGKILL');
  });
});
