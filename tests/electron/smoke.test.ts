import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import { demoAccount } from '../e2e/fixtures';

/**
 * The desktop app itself, driven by Playwright's Electron support. Runs where an Electron binary exists
 * (`npx install-electron --no`, or a first `npm start`) and the app was built (`npm run build`).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The binary the `electron` package installed, without asking for it: since Electron 42 `require('electron')`
 * downloads a missing binary (docs/breaking-changes.md, "electron no longer downloads itself via postinstall"),
 * which a test collection must not start. The package names the binary in path.txt once installed.
 */
function electronBinary(): string | null {
  const packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const named = join(packageDir, 'path.txt');
  if (!existsSync(named)) return null;
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist');
  const path = join(dist, readFileSync(named, 'utf8').trim());
  return existsSync(path) ? path : null;
}

const binary = electronBinary();
const built = existsSync(join(root, 'out/main/index.js'));
const reason = !binary
  ? 'no Electron binary here (`npx install-electron --no` fetches it); the same screens are tested through the web host'
  : !built
    ? 'the app is not built: run `npm run build` first'
    : '';
if (reason) console.log(`tests/electron skipped: ${reason}`);

test.describe('Electron smoke', () => {
  test.skip(Boolean(reason), reason);

  test('opens a window, signs in, and keeps the session across a restart', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'bo-electron-'));
    const launch = () =>
      electron.launch({
        executablePath: binary!,
        // The demo workspace: its accounts sign in, and a local workspace asks no first-start choice.
        args: [root, `--user-data-dir=${userData}`, '--demo'],
        env: { ...process.env, BACKOFFICE_USER_DATA: userData },
      });
    try {
      let app = await launch();
      let window = await app.firstWindow();
      await expect(window).toHaveURL(/\/login$/);
      const admin = demoAccount('ADMIN');
      await window.getByLabel(/e-mail|username/i).fill(admin.email);
      await window.getByLabel(/mot de passe|password/i).fill(admin.password);
      await window.getByRole('button', { name: /connexion|se connecter|login/i }).click();
      await window.waitForURL((url) => !url.pathname.startsWith('/login'));
      await app.close();

      // Signed in again from the kept session: the first screen, not the sign-in page.
      app = await launch();
      window = await app.firstWindow();
      await window.waitForLoadState('domcontentloaded');
      await expect(window).not.toHaveURL(/\/login$/, { timeout: 20_000 });
      await app.close();
    } finally {
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
