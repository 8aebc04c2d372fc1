import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Stoplight Prism in proxy mode (`prism proxy --errors`) in front of `upstream`, validating against `documentFile`. */
export interface PrismProxy {
  url: string;
  /** Prism's own log (warnings and errors): which upstream calls answered 501, what it could not read. */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPrismProxy(documentFile: string, upstream: string): Promise<PrismProxy> {
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
  const port = await freePort();
  const args = [bin, 'proxy', '--errors', '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'warn', documentFile, upstream];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}): ${output}`);
    try {
      await fetch(`${url}/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`prism did not listen within 2 minutes: ${output}`);
      // Polling for the port to answer: Prism prints nothing at warn level when it is ready.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return {
    url,
    log: () => output,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
