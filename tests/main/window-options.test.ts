import { describe, expect, it, vi } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  buildWindowOptions,
  isAllowedFrameNavigation,
  isAllowedNavigation,
  isAllowedRedirect,
  isPermissionAllowed,
  routeFromDeepLink,
} from '../../src-main/window-options';

describe('Electron security checklist items covered by the window options', () => {
  const { webPreferences } = buildWindowOptions({ preloadPath: '/app/out/preload/index.mjs', isPackaged: true });

  it('isolates the renderer: context isolation, sandbox, no Node integration anywhere', () => {
    expect(webPreferences.contextIsolation).toBe(true);
    expect(webPreferences.sandbox).toBe(true);
    expect(webPreferences.nodeIntegration).toBe(false);
    expect(webPreferences.nodeIntegrationInWorker).toBe(false);
    expect(webPreferences.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and insecure content, experimental features and <webview> off', () => {
    expect(webPreferences.webSecurity).toBe(true);
    expect(webPreferences.allowRunningInsecureContent).toBe(false);
    expect(webPreferences.experimentalFeatures).toBe(false);
    expect(webPreferences.webviewTag).toBe(false);
    expect(webPreferences.navigateOnDragDrop).toBe(false);
    expect(webPreferences.preload).toBe('/app/out/preload/index.mjs');
  });

  it('defines a strict CSP: own scripts only, no eval, no objects, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    // No injected <style> elements: only inline style attributes are allowed.
    expect(CONTENT_SECURITY_POLICY).toContain("style-src 'self';");
    expect(CONTENT_SECURITY_POLICY).toContain("style-src-attr 'unsafe-inline'");
  });

  it('locks navigation to the app:// origin', () => {
    expect(isAllowedNavigation('app://renderer/admin')).toBe(true);
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://other/x', 'javascript:alert(1)', 'not a url']) {
      expect(isAllowedNavigation(url), url).toBe(false);
    }
  });

  it('has no DevTools in an installed app, whatever NODE_ENV or the environment say', () => {
    // Stubbed key by key: replacing process.env with a copy would leave later tests a plain object, on which a TZ
    // assignment no longer changes the process's time zone (the date tests rely on it).
    vi.stubEnv('NODE_ENV', 'development');
    vi.stubEnv('BACKOFFICE_DEVTOOLS', '1');
    try {
      expect(buildWindowOptions({ preloadPath: '/p', isPackaged: true }).webPreferences.devTools).toBe(false);
      expect(buildWindowOptions({ preloadPath: '/p', isPackaged: false }).webPreferences.devTools).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('applies the navigation rule to redirects, and lets no frame navigate', () => {
    expect(isAllowedRedirect('app://renderer/login')).toBe(true);
    expect(isAllowedRedirect('https://evil.example/')).toBe(false);
    expect(isAllowedFrameNavigation('app://renderer/admin', true)).toBe(true);
    expect(isAllowedFrameNavigation('app://renderer/admin', false)).toBe(false);
    expect(isAllowedFrameNavigation('https://evil.example/', true)).toBe(false);
  });

  it('refuses every permission request but writing text to the clipboard (the copy buttons)', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'fileSystem', 'unknown'])
      expect(isPermissionAllowed(permission)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write')).toBe(true);
  });

  it('turns a password-reset deep link into the in-app route, and nothing else', () => {
    expect(routeFromDeepLink('backoffice://app/password/confirm?confirmationToken=abc_DEF-123')).toBe(
      '/password/confirm?confirmationToken=abc_DEF-123',
    );
    expect(routeFromDeepLink('backoffice://app/admin')).toBeNull();
    expect(routeFromDeepLink('backoffice://evil/password/confirm?confirmationToken=x')).toBeNull();
    expect(routeFromDeepLink('backoffice://app/password/confirm?confirmationToken=<script>')).toBeNull();
    expect(routeFromDeepLink('https://app/password/confirm?confirmationToken=x')).toBeNull();
  });
});
