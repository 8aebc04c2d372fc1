import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { OgObject } from 'open-graph-scraper/types';

/**
 * Open Graph and meta tags read from a page's HTML in worker threads (docs/security.md): cheerio's parse time grows faster
 * than quadratically on hostile markup (200 KB of nested <div>s: 33 s), so it never runs on the server's main
 * thread. Each parse has a time limit that terminates its worker, and a heap limit; at most `maxParses` run at
 * once, beyond which the caller is told at once (never queued). Idle workers are kept warm for the next page
 * (loading open-graph-scraper and cheerio costs about 0.25 s) and ended after `idleMs`.
 *
 * The worker is evaluated from the source below and requires open-graph-scraper by the path resolved here, from
 * this module's place: no separate worker entry, so it works the same under tsx and vitest (TypeScript sources), in
 * the web host bundled by vite and in the desktop app bundled by electron-vite (packages stay in node_modules).
 */

export interface HtmlParseOptions {
  /** Parses running at once on this server; one more fails with `busy`. */
  maxParses: number;
  /**
   * CPU time a parse may take once its worker is ready (on Linux; wall time elsewhere); past it the worker is
   * terminated. Never more than WALL_LIMIT_FACTOR times as long in wall time.
   */
  timeLimitMs: number;
  /** Wall-clock time a parse may wait in all, however little CPU it was given; WALL_LIMIT_FACTOR limits by default. */
  waitLimitMs?: number;
  /** The worker's old-generation heap; past it the worker dies (`tooLarge`). */
  maxMemoryMb: number;
  /** How long an idle worker is kept for the next parse. */
  idleMs: number;
  /**
   * Time a new worker may take to load open-graph-scraper; by default 15 s, or the wait limit when longer: the load
   * runs at the worker's lowered priority, so on a busy machine it waits as a parse does (a CI run at load 16 with
   * the busy test's twelve hogs gave it too little CPU to load in 15 s).
   */
  startLimitMs?: number;
}

export type HtmlParseFailure = 'busy' | 'tooSlow' | 'tooLarge' | 'failed';

export class HtmlParseError extends Error {
  constructor(
    readonly reason: HtmlParseFailure,
    message: string = reason,
  ) {
    super(message);
    this.name = 'HtmlParseError';
  }
}

/*
 * On Linux the nice value is a thread's own: once open-graph-scraper is loaded (at normal priority, so that a busy
 * machine does not stretch the start), the worker lowers its priority, so that the main thread (every other
 * account's calls) goes first. Elsewhere the call would lower the whole process: not made.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ogs = require(workerData.ogsPath);
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(workerData.nice);
  } catch {}
}
const run = typeof ogs === 'function' ? ogs : ogs.default;
parentPort.on('message', async (job) => {
  try {
    const { result } = await run({ html: job.html, customMetaTags: job.customMetaTags, onlyGetOpenGraphInfo: job.skipFallbacks });
    parentPort.postMessage({ id: job.id, result });
  } catch (error) {
    const message = (error && error.result && error.result.error) || (error && error.message) || String(error);
    parentPort.postMessage({ id: job.id, error: String(message) });
  }
});
// The thread's id in the kernel (Linux), so that the server reads this thread's own CPU time.
let tid;
try {
  tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()) || undefined;
} catch {}
parentPort.postMessage({ ready: true, tid });
`;

/** The worker thread's nice value on Linux (0 normal, 19 lowest). */
const WORKER_NICE = 10;

const CUSTOM_META_TAGS = [{ multiple: false, property: 'author', fieldName: 'metaAuthor' }];
/** Fallbacks whose fields the pre-fill never reads: their selectors walk the whole tree for nothing. */
const SKIPPED_FALLBACKS = ['audioUrl', 'locale', 'url', 'date'];
/**
 * The HTML is already text: without a first <meta charset>, open-graph-scraper runs chardet over the whole page
 * to report a charset nobody reads (256 KB of text: most of the parse time). The parser puts this meta in the head,
 * where it adds nothing the pre-fill reads.
 */
const CHARSET_HINT = '<meta charset="utf-8">';

/**
 * The time limit counts the worker's CPU time where the kernel tells it: at its lowered priority, on a busy machine,
 * an ordinary page waited past a wall-clock limit and was refused as too slow (a CI run at load 12). A hostile page
 * still spends its CPU time and is stopped; a thread the machine never lets run is stopped after this many limits.
 */
const WALL_LIMIT_FACTOR = 10;
/** Linux counts a thread's CPU time in ticks of 1/100 s (USER_HZ). */
const MS_PER_TICK = 10;

/** CPU time used so far by a thread of this process, in ms (Linux, /proc); undefined elsewhere or when unreadable. */
function threadCpuMs(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return undefined;
  }
}

interface Pooled {
  worker: Worker;
  tid?: number;
  idleTimer?: NodeJS.Timeout;
}

export function htmlParser(options: HtmlParseOptions) {
  const ogsPath = createRequire(import.meta.url).resolve('open-graph-scraper');
  const startLimitMs = options.startLimitMs ?? Math.max(15_000, options.waitLimitMs ?? 0);
  const live = new Set<Worker>();
  const idle: Pooled[] = [];
  let running = 0;
  let nextId = 1;
  let closed = false;

  async function end(worker: Worker) {
    live.delete(worker);
    await worker.terminate().catch(() => undefined);
  }

  /** A worker whose open-graph-scraper is loaded; a worker that cannot start is a server fault (plain Error). */
  function start(): Promise<Pooled> {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ogsPath, nice: WORKER_NICE },
      resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb },
    });
    live.add(worker);
    return new Promise<Pooled>((resolve, reject) => {
      const fail = (error: Error) => {
        cleanup();
        void end(worker);
        reject(error);
      };
      const onMessage = (message: { ready?: boolean; tid?: number }) => {
        if (!message.ready) return;
        cleanup();
        resolve({ worker, tid: message.tid });
      };
      const onError = (error: Error) => fail(new Error(`URL parse worker failed to start: ${error.message}`, { cause: error }));
      const onExit = (code: number) => fail(new Error(`URL parse worker exited at start (code ${code})`));
      const timer = setTimeout(() => fail(new Error(`URL parse worker not ready after ${startLimitMs} ms`)), startLimitMs);
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  }

  /** Runs one parse; the worker comes back idle, or is terminated when the parse failed for its limits. */
  function run(pooled: Pooled, html: string): Promise<OgObject> {
    const { worker } = pooled;
    const id = nextId++;
    return new Promise<OgObject>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (outcome: { result: OgObject } | { error: HtmlParseError }, keep: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        const done = () => ('result' in outcome ? resolve(outcome.result) : reject(outcome.error));
        if (keep && !closed) {
          park(pooled);
          done();
        } else {
          // The slot is given back once the thread is gone, so no more than maxParses threads ever run.
          void end(worker).then(done);
        }
      };
      const onMessage = (message: { id?: number; result?: OgObject; error?: string }) => {
        if (message.id !== id) return;
        if (message.error !== undefined) settle({ error: new HtmlParseError('failed', message.error) }, true);
        else settle({ result: message.result as OgObject }, true);
      };
      const onError = (error: Error & { code?: string }) =>
        settle({ error: new HtmlParseError(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'tooLarge' : 'failed', error.message) }, false);
      const onExit = () => settle({ error: new HtmlParseError('failed', 'the worker exited') }, false);
      const cpuAtStart = threadCpuMs(pooled.tid);
      const startedAt = performance.now();
      const checkTime = () => {
        const waited = performance.now() - startedAt;
        const cpuNow = threadCpuMs(pooled.tid);
        const used = cpuAtStart === undefined || cpuNow === undefined ? waited : cpuNow - cpuAtStart;
        if (used >= options.timeLimitMs || waited >= (options.waitLimitMs ?? options.timeLimitMs * WALL_LIMIT_FACTOR)) {
          settle({ error: new HtmlParseError('tooSlow') }, false);
        } else timer = setTimeout(checkTime, options.timeLimitMs - used);
      };
      timer = setTimeout(checkTime, options.timeLimitMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.ref();
      worker.postMessage({ id, html: CHARSET_HINT + html, customMetaTags: CUSTOM_META_TAGS, skipFallbacks: SKIPPED_FALLBACKS });
    });
  }

  function park(pooled: Pooled) {
    pooled.worker.unref();
    pooled.idleTimer = setTimeout(() => {
      const index = idle.indexOf(pooled);
      if (index >= 0) idle.splice(index, 1);
      void end(pooled.worker);
    }, options.idleMs);
    pooled.idleTimer.unref();
    idle.push(pooled);
  }

  return {
    /** Tags of the page; throws HtmlParseError (busy, tooSlow, tooLarge, failed), or Error if no worker starts. */
    async parse(html: string): Promise<OgObject> {
      if (closed) throw new HtmlParseError('failed', 'closed');
      if (running >= options.maxParses) throw new HtmlParseError('busy');
      running += 1;
      try {
        const pooled = idle.pop() ?? (await start());
        clearTimeout(pooled.idleTimer);
        return await run(pooled, html);
      } finally {
        running -= 1;
      }
    },
    /** Parses running now (tests and figures). */
    get running() {
      return running;
    },
    async close() {
      closed = true;
      for (const pooled of idle.splice(0)) clearTimeout(pooled.idleTimer);
      await Promise.all([...live].map(end));
    },
  };
}
