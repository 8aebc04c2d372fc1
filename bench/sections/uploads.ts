import { randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { IpcEventPayload } from '@shared/ipc';
import { createIpcHandlers, dispatchIpc } from '../../src-main/ipc/handlers';
import type { PickedFile } from '../../src-main/services/host-files';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';
import { DEMO_ACCOUNTS } from '../../src-server/seed';
import { startServer } from '../../src-server/server';
import { summarize, table } from '../stats';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MB = 1024 * 1024;
const SIZE = 100 * MB;
const RUNS = 5;
/** An MP4 file type box, so the server takes the file as the video it claims to be. */
const MP4_HEAD = Buffer.from('00000018667479706d70343200000000' + '69736f6d6d703432', 'hex');

/**
 * A 100 MB video uploaded through main ('files:upload': read from disk, multipart, streamed) to the
 * API's local-folder storage. The API runs in this same process, so the RSS growth counts both ends; the
 * target is ≥ 100 MB/s and ≤ 50 MB of RSS growth.
 */
export async function uploadsSection() {
  const folder = mkdtempSync(join(tmpdir(), 'bo-bench-uploads-'));
  const path = join(folder, 'film.mp4');
  const fd = openSync(path, 'w');
  writeSync(fd, MP4_HEAD);
  const chunk = Buffer.alloc(4 * MB, 7);
  for (let written = MP4_HEAD.length; written < SIZE; written += chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, SIZE - written));
  closeSync(fd);

  const server = await startServer({
    port: 0,
    dataDir: join(folder, 'pglite'),
    templateDir: join(root, '.data/pglite-template'),
    demo: true,
    logger: pino({ level: 'silent' }),
    config: { storage: { kind: 'local', dir: join(folder, 'storage') } },
  });
  const vault = await createSessionVault({ service: 'bench', account: 'bench' });
  const api = new ApiClient({ baseUrl: () => server.url, vault });
  const csm = DEMO_ACCOUNTS.find((account) => account.role === 'CSM')!;
  const signed = await api.signIn(csm.email, csm.password);
  if (!signed.ok) throw new Error(signed.errorMsg);
  let progressEvents = 0;
  const picked: PickedFile = { path, fileName: 'film.mp4', temporary: false };
  const settings: SettingsStore = {
    get: () => ({ ...DEFAULT_SETTINGS }),
    set: () => ({ ...DEFAULT_SETTINGS }),
    getWindowBounds: () => null,
    setWindowBounds: () => undefined,
  };
  const handlers = createIpcHandlers({
    api,
    settings,
    files: { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => picked },
    appInfo: () => ({ version: 'bench', apiUrl: server.url, databaseKind: 'pglite', host: 'electron', demo: true }),
    emit: (event, _payload: IpcEventPayload<'files:progress'> | unknown) => {
      if (event === 'files:progress') progressEvents += 1;
    },
  });

  const throughputs: number[] = [];
  const growths: number[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const started = performance.now();
      const result = await dispatchIpc(handlers, 'files:upload', {
        jobId: randomUUID(),
        operation: 'storage.uploadDocument',
        fields: { path: 'assets/clients/bench' },
      });
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (!result.ok) throw new Error(result.errorMsg);
      throughputs.push(SIZE / MB / seconds);
      growths.push((peak - before) / MB);
    }
  } finally {
    await api.close();
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
  const speed = summarize(throughputs);
  const growth = summarize(growths);
  table(`100 MB video through main to local storage (${RUNS} runs, API in the same process)`, [
    ['throughput p50', `${speed.p50.toFixed(0)} MB/s (target ≥ 100)`],
    ['throughput min', `${Math.min(...throughputs).toFixed(0)} MB/s`],
    ['RSS growth p50', `${growth.p50.toFixed(1)} MB (target ≤ 50)`],
    ['RSS growth max', `${growth.max.toFixed(1)} MB`],
    ['progress events per upload', `${Math.round(progressEvents / RUNS)}`],
  ]);
  return { throughputMBps: speed, rssGrowthMB: growth, progressEventsPerUpload: progressEvents / RUNS };
}
