import { describe, expect, it } from 'vitest';
import { WORKPLACE_MESSAGES } from '@shared/messages';
import { createMainServices, type MainServicesOptions } from '../../src-main/main-services';
import { createSessionVault } from '../../src-main/services/session-vault';
import { createSettingsStore } from '../../src-main/services/settings';

/** « Ouvrir le dossier des journaux » (About page): main opens its own log folder, never one the page names. */
const noFiles = { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null };

async function openLogFolder(options: Partial<MainServicesOptions>) {
  const values = new Map<string, unknown>();
  const services = createMainServices({
    host: 'electron',
    version: () => '1.0.0',
    settings: createSettingsStore({ get: (key) => values.get(key), set: (key, value) => void values.set(key, value), delete: () => undefined }),
    files: noFiles,
    embedded: async () => ({ url: 'http://127.0.0.1:1', databaseKind: 'pglite' }),
    ...options,
  });
  const session = services.openSession({ vault: await createSessionVault({ service: 't', account: 'logs' }), onSessionExpired: () => undefined });
  try {
    return await session.dispatch('app:openLogFolder', {});
  } finally {
    await session.close();
  }
}

describe('app:openLogFolder', () => {
  it("opens the host's log folder, and only that one", async () => {
    const opened: string[] = [];
    const answer = await openLogFolder({ logDir: '/home/u/.config/Back-office/logs', openFolder: async (folder) => (opened.push(folder), '') });
    expect(answer).toEqual({ ok: true, data: { folder: '/home/u/.config/Back-office/logs' } });
    expect(opened).toEqual(['/home/u/.config/Back-office/logs']);
  });

  it('says in French where the folder is when the system cannot open it, and that there is none without log files', async () => {
    expect(await openLogFolder({ logDir: '/var/logs/bo', openFolder: async () => 'Failed to open path' })).toMatchObject({
      ok: false,
      errorMsg: WORKPLACE_MESSAGES.openLogsFailed('/var/logs/bo'),
    });
    expect(await openLogFolder({ logDir: null })).toMatchObject({ ok: false, errorMsg: WORKPLACE_MESSAGES.noLogFolder });
  });
});
