import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMainServices } from '../../src-main/main-services';
import { crashReporterOptions } from '../../src-main/services/crash-reports';
import { createRollingLog, lastLogLines, redactLine, type RollingLog } from '../../src-main/services/logs';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

let server: TestServer;
let log: RollingLog;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bo-logs-'));
  log = await createRollingLog({ dir, name: 'main' });
  // The API writes into the same folder, as the embedded one does (server.N.log).
  server = await startTestServer({ logger: (await createRollingLog({ dir, name: 'server' })).logger });
});
afterAll(async () => {
  await server?.close();
  log?.close();
  rmSync(dir, { recursive: true, force: true });
});

const settingsWithSecrets: SettingsStore = {
  get: () => ({
    ...DEFAULT_SETTINGS,
    apiUrl: 'https://ops:hunter2@api.example.com/platform?token=tok-123',
    shortUrlServiceUrl: 'https://short.example.com/admin?signature=sig-456',
    updateUrl: 'https://updates.example.com/backoffice',
  }),
  set: () => DEFAULT_SETTINGS,
  getWindowBounds: () => null,
  setWindowBounds: () => undefined,
};
const noFiles = { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null };

describe('log files and the About page diagnostics', () => {
  it('copies versions, settings without secrets and the last log lines, renderer errors with their route included', async () => {
    const services = createMainServices({
      host: 'electron',
      version: () => '1.4.2',
      settings: settingsWithSecrets,
      files: noFiles,
      embedded: async () => ({ url: server.url, databaseKind: 'pglite' }),
      logger: { warn: (details, message) => log.logger.warn(details, message) },
      logDir: dir,
      versions: { Electron: '45.0.0', Chromium: '142.0' },
      onRendererError: (report) => log.logger.error({ renderer: report }, `renderer error on ${report.route}: ${report.message}`),
    });
    const session = services.openSession({ vault: await createSessionVault({ service: 't', account: 'a' }), onSessionExpired: () => undefined });
    const admin = await server.createAccount(['ADMIN']);
    // The team server of the settings is not reachable here: the embedded one answers (apiUrl cleared for the call).
    settingsWithSecrets.get = ((get) => () => ({ ...get(), apiUrl: '' }))(settingsWithSecrets.get);
    expect(await session.dispatch('session:signIn', { username: admin.email, password: TEST_PASSWORD })).toMatchObject({ ok: true });
    expect(
      await session.dispatch('app:reportError', {
        route: '/adverts/edit/5',
        message: 'Cannot read properties of undefined (reading "title")',
        stack: 'TypeError: Cannot read…\n    at AdvertEditPage',
      }),
    ).toEqual({ ok: true, data: { logged: true } });
    // Whatever a caller writes, secrets stay out of the files.
    log.logger.info({ password: 'hunter2', body: { refreshToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJl' } }, 'sign-in attempt');
    log.logger.warn('retrying with Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJl');
    log.logger.warn('fetch https://ops:hunter2@api.example.com/x failed; password=hunter2&token=tok-123');
    // Written once flushed: the file stream writes asynchronously (on a busy machine, after the read below).
    await new Promise<void>((resolve, reject) => log.logger.flush((error) => (error ? reject(error) : resolve())));

    const answer = await session.dispatch('app:diagnostics', {});
    expect(answer.ok).toBe(true);
    const { logDir, text } = (answer as { ok: true; data: { logDir: string; text: string } }).data;
    expect(logDir).toBe(dir);
    expect(text).toContain('Back-office 1.4.2 (bureau)');
    expect(text).toContain('Electron : 45.0.0');
    expect(text).toContain(`Node : ${process.versions.node}`);
    expect(text).toContain('updateUrl : https://updates.example.com/backoffice');
    expect(text).toContain('shortUrlServiceUrl : https://short.example.com/admin\n');
    expect(text).toContain(`Journaux : ${dir}`);
    expect(text).toContain('renderer error on /adverts/edit/5: Cannot read properties of undefined');
    expect(text).toContain('sign-in attempt');
    // The embedded API writes its own file in the same folder.
    expect(readdirSync(dir).some((name) => name.startsWith('server.'))).toBe(true);
    for (const secret of ['hunter2', 'tok-123', 'sig-456', 'eyJ', TEST_PASSWORD, 'c2lnbmF0dXJl', 'ops:']) expect(text, secret).not.toContain(secret);
    await session.close();
  });

  it('reads the last lines of the files, in time order, and masks secrets in any line', async () => {
    const other = mkdtempSync(join(tmpdir(), 'bo-logs-'));
    // Two processes' files, their lines interleaved in time (pino's "time", epoch ms).
    const line = (i: number) => `${JSON.stringify({ level: 30, time: 1_700_000_000_000 + i, msg: `line ${i}` })}\n`;
    writeFileSync(join(other, 'main.1.log'), [0, 2, 4, 6, 8, 10, 12, 14].map(line).join(''));
    writeFileSync(join(other, 'server.1.log'), [1, 3, 5, 7, 9, 11, 13].map(line).join(''));
    writeFileSync(join(other, 'notes.txt'), 'not a log\n');
    const lines = await lastLogLines(other, 6);
    expect(lines.map((text) => /line (\d+)/.exec(text)?.[1])).toEqual(['9', '10', '11', '12', '13', '14']);
    // The rolling log writes <name>.<n>.log.
    const rolling = await createRollingLog({ dir: other, name: 'web' });
    rolling.logger.info('written');
    rolling.close();
    expect(readdirSync(other)).toContain('web.1.log');
    expect((await lastLogLines(other, 1))[0]).toContain('written');
    expect(await lastLogLines(join(other, 'missing'))).toEqual([]);
    rmSync(other, { recursive: true, force: true });
    expect(redactLine('{"newPassword":"s3cret","confirmationToken":"abc","ok":1}')).toBe(
      '{"newPassword":"[secret]","confirmationToken":"[secret]","ok":1}',
    );
    expect(redactLine('GET /cdn/a.pdf?expires=1&signature=abc')).toBe('GET /cdn/a.pdf?expires=1&signature=[secret]');
  });

  it('writes crash minidumps locally and uploads them only to an https crash report server', () => {
    expect(crashReporterOptions({ crashReportUrl: '', productName: 'Back-office', version: '1.4.2' })).toEqual({
      productName: 'Back-office',
      uploadToServer: false,
      compress: true,
      globalExtra: { version: '1.4.2' },
    });
    expect(
      crashReporterOptions({ crashReportUrl: 'https://crash.example.com/api/1/minidump/?key=k', productName: 'Back-office', version: '1' }),
    ).toMatchObject({
      submitURL: 'https://crash.example.com/api/1/minidump/?key=k',
      uploadToServer: true,
    });
    for (const url of ['http://crash.example.com/', 'https://u:p@crash.example.com/', 'not a url'])
      expect(crashReporterOptions({ crashReportUrl: url, productName: 'B', version: '1' }).uploadToServer, url).toBe(false);
  });
});
