import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import { demoAccount } from '../e2e/fixtures';

/**
 * The desktop app itself, driven by Playwright's Electron support. Runs where an Electron binary exists
 * (`npm ci` without ELECTRON_SKIP_BINARY_DOWNLOAD) and the app was built (`npx electron-vite build`).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

function electronBinary(): string | null {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown as string;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const built = existsSync(join(root, 'out/main/index.js'));
const reason = !binary
  ? 'no Electron binary here (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1); the same screens are tested through the web host'
  : !built
    ? 'the app is not built: run `npx electron-vite build` first'
    : '';
if (reason) console.log(`tests/electron skipped: ${reason}`);

test.describe('Electron smoke', () => {
  test.skip(Boolean(reason), reason);

  test('opens a window, signs in, and keeps the session across a restart', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'bo-electron-'));
    const launch = () =>
      electron.launch({
        executablePath: binary!,
        args: [root, `--user-data-dir=${userData}`],
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
