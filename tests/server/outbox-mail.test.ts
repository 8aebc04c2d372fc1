import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatOutboxMail } from '../../src-server/console';
import type { OutboxMail } from '../../src-server/server';
import { startTestServer, type TestServer } from '../helpers/server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const OSC8 = '\u001b]8;;';

describe('outbox mail reaches the host whatever the log level', () => {
  let server: TestServer;
  const printed: OutboxMail[] = [];
  // The test server logs nothing at all (level silent): the mail must still be handed over.
  beforeAll(async () => {
    server = await startTestServer({ onOutboxMail: (mail) => printed.push(mail) });
  });
  afterAll(() => server?.close());

  it('hands every kept mail, with its links, to onOutboxMail', async () => {
    const { email } = await server.createAccount(['CSM']);
    expect((await server.request('POST', '/password/reset', { body: { username: email } })).status).toBe(200);
    const stored = await server.lastMail(email);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatchObject({ to: email, subject: stored!.subject, text: stored!.body });
    expect(printed[0].links).toHaveLength(1);
    expect(printed[0].links[0]).toMatch(/^http:\/\/app\.test\/password\/confirm\?confirmationToken=[A-Za-z0-9_-]{43}$/);
    expect(stored!.body).toContain(printed[0].links[0]);
  });
});

describe('formatOutboxMail', () => {
  const mail: OutboxMail = {
    to: 'someone@test.local',
    subject: 'Réinitialisation de votre mot de passe',
    text: 'Suivez ce lien :\n\nhttp://127.0.0.1:4173/password/confirm?confirmationToken=abc\n\nFin.',
    links: ['http://127.0.0.1:4173/password/confirm?confirmationToken=abc'],
  };

  it('prints recipient, subject and text, the link as plain text without hyperlinks', () => {
    const block = formatOutboxMail(mail, { hyperlinks: false });
    expect(block).toContain('someone@test.local');
    expect(block).toContain(mail.subject);
    expect(block).toContain(mail.text);
    expect(block).not.toContain('\u001b');
  });

  it('makes each link an OSC 8 hyperlink when asked', () => {
    const block = formatOutboxMail(mail, { hyperlinks: true });
    expect(block).toContain(`${OSC8}${mail.links[0]}\u001b\\${mail.links[0]}${OSC8}\u001b\\`);
    expect(block.split(OSC8)).toHaveLength(3);
  });
});

describe('npm run server', () => {
  // The test's own time-out covers its waits: up to 60 s for the server to start (tsx, PGlite) on a busy machine,
  // then the mail; the suite's 30 s default cut the start short.
  it('prints the reset link at its default log level, even with LOG_LEVEL=warn', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bo-cli-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/cli.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        BACKOFFICE_DATA_DIR: join(dataDir, 'pglite'),
        BACKOFFICE_PGLITE_TEMPLATE: inject('pgliteTemplateDir'),
        BACKOFFICE_ADMIN_EMAIL: 'boss@test.local',
        BACKOFFICE_ADMIN_PASSWORD: 'a first admin passphrase',
        RESET_LINK_BASE: 'http://127.0.0.1:4173',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      await expect.poll(() => /API listening on (http:\/\/\S+)/.exec(output)?.[1], { timeout: 60_000, interval: 200 }).toBeTruthy();
      const url = /API listening on (http:\/\/\S+)/.exec(output)![1];
      const answer = await fetch(`${url}/password/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'boss@test.local' }),
      });
      expect(answer.status).toBe(200);
      await expect
        .poll(() => output, { timeout: 10_000 })
        .toMatch(/To: boss@test\.local[\s\S]*http:\/\/127\.0\.0\.1:4173\/password\/confirm\?confirmationToken=[A-Za-z0-9_-]{43}/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
