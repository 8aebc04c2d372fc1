import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoAccount, expect, signInAs, test } from './fixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));
let child: ChildProcess | null = null;
const dataDir = mkdtempSync(join(tmpdir(), 'bo-web-cli-'));

test.afterAll(async () => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** What `npm run web` runs once built: prints its address, then the API's and the demo accounts. */
function startBuiltWebHost(): Promise<{ url: string; output: () => string }> {
  child = spawn(process.execPath, [join(root, 'out/web/web-cli.js')], {
    cwd: root,
    env: { ...process.env, BACKOFFICE_DATA_DIR: dataDir, WEB_PORT: '0', LOG_LEVEL: 'warn', API_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const url = /Back-office web: (\S+)/.exec(output)?.[1];
      if (url) resolve({ url, output: () => output });
    });
    child!.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child!.once('exit', (code) => reject(new Error(`web host exited (${code}): ${output}`)));
  });
}

test.describe('npm run web (the built web host)', () => {
  test('prints its address, serves the app with the embedded API and the demo workspace, and stops on SIGTERM', async ({ page }) => {
    test.setTimeout(150_000);
    const { url, output } = await startBuiltWebHost();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const admin = demoAccount('ADMIN');
    await signInAs(page, url, admin.email, admin.password);
    await page.waitForURL((current) => current.pathname === '/adverts');
    await page.getByTestId('nav-admin').click();
    await page.waitForURL((current) => current.pathname === '/admin');
    await expect(page.locator(`[data-email="${admin.email}"]`)).toHaveCount(1, { timeout: 20_000 });
    expect(output()).toContain('(embedded, pglite)');
    expect(output()).toContain(admin.password);

    // A reset asked from the page prints its mail, link included, at the default log level (warn).
    const secret = await page.locator('meta[name="backoffice-web-secret"]').getAttribute('content');
    const reset = await fetch(`${url}/__ipc/api:call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-backoffice-secret': secret!, origin: url },
      body: JSON.stringify({ payload: { operation: 'password.reset', input: { body: { username: admin.email } } } }),
    });
    expect(await reset.json()).toMatchObject({ ok: true });
    await expect
      .poll(output, { timeout: 20_000 })
      .toMatch(
        new RegExp(`To: ${admin.email.replace('.', '\\.')}[\\s\\S]*${url.replace(/[.:/]/g, '\\$&')}/password/confirm\\?confirmationToken=[\\w-]+`),
      );
    // Not a terminal: the link is plain text, without OSC 8 escapes.
    expect(output()).not.toContain('\u001b]8;;');
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = null;
  });
});
