import { createServer, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src-server/mail/mailer';

const sockets: Socket[] = [];
/** A mail server that accepts the connection and says nothing until told to hang up. */
const silentSmtp = createServer((socket) => sockets.push(socket));
afterAll(() => new Promise<void>((resolve) => silentSmtp.close(() => resolve())));

describe('SMTP mailer', () => {
  it('hands the mail over without waiting for the mail server, and logs a failed delivery', async () => {
    await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve));
    const port = (silentSmtp.address() as { port: number }).port;
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()) }));
    const mailer = await createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Back-office <no-reply@test.local>', logger);

    await mailer.send({ to: 'someone@test.local', subject: 'Réinitialisation', text: 'lien' });
    // send() has returned while the mail server has not even greeted: the request did not wait on it.
    await expect.poll(() => sockets.length).toBe(1);
    expect(lines.some((line) => line.includes('mail not sent'))).toBe(false);

    sockets[0].destroy();
    await expect.poll(() => lines.find((line) => line.includes('mail not sent')), { timeout: 10_000 }).toContain('someone@test.local');
  });
});
