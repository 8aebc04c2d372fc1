import { describe, expect, it } from 'vitest';
import { decideDownload, leavesPage, secondWindowBounds, unsavedChangesDialog } from '../../src-main/desktop-windows';
import { buildWindowOptions, isAllowedNavigation } from '../../src-main/window-options';

describe('what the desktop host does where a browser decides alone', () => {
  it("saves the app's media and the page's blobs through the save dialog, with a safe name; cancels other downloads", () => {
    // The BAT screenshot library's "Télécharger" (<a href="/cdn/…" download>).
    expect(decideDownload('app://renderer/cdn/assets/bat/shots/4.png', 'capture-4.png')).toEqual({ action: 'save', defaultName: 'capture-4.png' });
    expect(decideDownload('blob:app://renderer/5f0c-4d', 'export.csv')).toEqual({ action: 'save', defaultName: 'export.csv' });
    // No suggested name: the last segment of the path, decoded.
    expect(decideDownload('app://renderer/cdn/assets/Labo%20X/brief.pdf', '')).toEqual({ action: 'save', defaultName: 'brief.pdf' });
    // A name cannot climb out of the folder the user picks, nor hold characters Windows refuses.
    expect(decideDownload('app://renderer/cdn/a.png', '../../evil:name?.png')).toEqual({ action: 'save', defaultName: '_.._evil_name_.png' });
    expect(decideDownload('app://renderer/cdn/a.png', 'tab\tnew\nline.png')).toEqual({ action: 'save', defaultName: 'tab_new_line.png' });
    expect(decideDownload('app://renderer/cdn/a.png', '...')).toEqual({ action: 'save', defaultName: 'a.png' });
    for (const url of [
      'app://renderer/adverts/edit/5',
      'app://other/cdn/a.png',
      'blob:https://evil.example/5f0c',
      'https://evil.example/cdn/a.exe',
      'file:///etc/passwd',
      'data:application/octet-stream;base64,AA==',
      'not a url',
    ]) {
      expect(decideDownload(url, 'x.bin'), url).toEqual({ action: 'cancel' });
    }
  });

  it('asks before a window with unsaved changes closes, in the in-app words; only "Quitter" lets it go', () => {
    expect(unsavedChangesDialog.message).toBe('Des modifications ne sont pas enregistrées. Quitter sans enregistrer ?');
    expect(unsavedChangesDialog.buttons).toEqual(['Quitter', 'Rester']);
    // Escape or closing the dialog answers cancelId: the page stays.
    expect(leavesPage(unsavedChangesDialog.cancelId)).toBe(false);
    expect(leavesPage(unsavedChangesDialog.defaultId)).toBe(false);
    expect(leavesPage(0)).toBe(true);
  });

  it('opens a second window beside the first, with the same security options', () => {
    expect(secondWindowBounds({ x: 10, y: 20, width: 1440, height: 900 })).toEqual({ x: 42, y: 52, width: 1440, height: 900 });
    expect(secondWindowBounds(null)).toBeNull();
    const options = buildWindowOptions({
      preloadPath: '/p.cjs',
      bounds: secondWindowBounds({ x: 0, y: 0, width: 1200, height: 800 }),
      isPackaged: true,
    });
    expect(options).toMatchObject({ x: 32, y: 32, width: 1200, height: 800 });
    expect(options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: '/p.cjs' });
  });

  it('lets no dropped file take the window: the drop does not navigate, and file: is not the app', () => {
    expect(buildWindowOptions({ preloadPath: '/p.cjs', isPackaged: true }).webPreferences.navigateOnDragDrop).toBe(false);
    expect(isAllowedNavigation('file:///home/staff/Bureau/liste.csv')).toBe(false);
    expect(isAllowedNavigation('file:///C:/Users/staff/Desktop/liste.csv')).toBe(false);
  });
});
