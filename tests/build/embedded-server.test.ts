import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { out, root } from './built-files';

/**
 * The built embedded server (out/main/embedded-server.js, the desktop app's utility-process entry) under plain
 * Node: its bundled code, the migrations and PGlite template shipped beside it, started as the main process
 * starts it (src-main/hosts/electron.ts), with Electron's process.parentPort replaced by a stand-in.
 */
const dataRoot = mkdtempSync(join(tmpdir(), 'bo-built-server-'));
const setupToken = 'built-server-setup-token';
let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dataRoot, { recursive: true, force: true });
});

function start(): Promise<{ child: ChildProcess; url: string; databaseKind: string }> {
  const child = fork(out('main/embedded-server.js'), [], {
    cwd: dataRoot,
    execArgv: ['--import', join(root, 'tests/build/utility-process-stand-in.mjs')],
    env: {
      ...process.env,
      BACKOFFICE_DATA_DIR: join(dataRoot, 'pglite'),
      BACKOFFICE_SETUP_TOKEN: setupToken,
      BACKOFFICE_DEMO: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  server = child;
  return new Promise((resolvePromise, reject) => {
    child.once('exit', (code) => reject(new Error(`the built embedded server exited (${code}) before it was ready`)));
    child.on('message', (message: { type: string; url?: string; databaseKind?: string; message?: string }) => {
      if (message.type === 'ready') resolvePromise({ child, url: message.url!, databaseKind: message.databaseKind! });
      else reject(new Error(`the built embedded server failed: ${message.message}`));
    });
  });
}

const stopped = (child: ChildProcess) => new Promise<number | null>((resolvePromise) => child.once('exit', (code) => resolvePromise(code)));

describe('the built embedded server', () => {
  it('starts from the shipped template, creates the administrator, signs in, answers /meta and stops cleanly', async () => {
    const { child, url, databaseKind } = await start();
    expect(databaseKind).toBe('pglite');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    expect((await fetch(`${url}/meta`)).status).toBe(401);
    expect(await (await fetch(`${url}/setup`)).json()).toEqual({ needed: true, available: true });
    const account = { name: 'Admin Build', username: 'admin@build.test', password: 'correct-horse-battery-staple-2026' };
    const created = await fetch(`${url}/setup/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...account, setupToken }),
    });
    expect(created.status).toBe(201);
    const signedIn = await fetch(`${url}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: account.username, password: account.password }),
    });
    expect(signedIn.status).toBe(200);
    const { accessToken } = (await signedIn.json()) as { accessToken: { value: string } };
    const meta = await fetch(`${url}/meta`, { headers: { authorization: `Bearer ${accessToken.value}` } });
    expect(meta.status).toBe(200);
    expect(Object.keys((await meta.json()) as object).length).toBeGreaterThan(0);

    const exit = stopped(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    server = undefined;
  });
});
