import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Session } from '@shared/contract';
import { createSessionVault, encryptsForReal, loadKeytar, type Encryptor, type KeyValueStore } from '../../src-main/services/session-vault';

const DAY = 24 * 60 * 60 * 1000;

function session(now: number): Session {
  return {
    accessToken: { value: 'eyJ-access-secret', expiresAt: new Date(now + 15 * 60 * 1000).toISOString() },
    refreshToken: { value: 'eyJ-refresh-secret', expiresAt: new Date(now + DAY).toISOString() },
    userId: 7,
    roles: ['CSM'],
  };
}

/** A real reversible cipher standing in for Electron's safeStorage (which needs Electron). */
function aesEncryptor(available = true): Encryptor {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    encryptString(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: (k) => data.get(k), set: (k, v) => void data.set(k, v), delete: (k) => void data.delete(k) };
}

const keytar = await loadKeytar();
if (!keytar) console.log('keychain test skipped: no Secret Service on this D-Bus session (CI runs it under gnome-keyring)');

describe('session vault', () => {
  it('falls back to memory, says it is not persistent, and forgets the session after a day', async () => {
    let now = Date.now();
    const vault = await createSessionVault({ service: 's', account: 'a', now: () => now });
    expect(vault.kind).toBe('memory');
    expect(vault.persistent).toBe(false);
    await vault.save(session(now));
    expect((await vault.load())?.userId).toBe(7);
    now += DAY + 1;
    expect(await vault.load()).toBeNull();
  });

  it('keeps only ciphertext in the store when encryption is available', async () => {
    const now = Date.now();
    const store = memoryStore();
    const vault = await createSessionVault({ service: 's', account: 'http://api', encryptor: aesEncryptor(), store, now: () => now });
    expect(vault.kind).toBe('encrypted-store');
    await vault.save(session(now));
    const stored = JSON.stringify([...store.data.values()]);
    expect(stored).not.toContain('secret');
    expect(stored).not.toContain('eyJ');
    expect((await vault.load())?.refreshToken.value).toBe('eyJ-refresh-secret');
    // A vault reopened on the same store (an app restart) finds the session.
    const reopened = await createSessionVault({ service: 's', account: 'http://api', encryptor: aesEncryptor(), store, now: () => now });
    expect(await reopened.load()).toBeNull(); // another key cannot decrypt it: treated as no session, and cleared
    expect(store.data.size).toBe(0);
    await vault.clear();
  });

  it('never writes plaintext: without encryption it stays in memory', async () => {
    const store = memoryStore();
    const vault = await createSessionVault({ service: 's', account: 'a', encryptor: aesEncryptor(false), store });
    expect(vault.kind).toBe('memory');
    await vault.save(session(Date.now()));
    expect(store.data.size).toBe(0);
  });

  it("does not count Linux safeStorage's basic_text backend as encryption: the session stays in memory", async () => {
    const store = memoryStore();
    const basicText: Encryptor = { ...aesEncryptor(), getSelectedStorageBackend: () => 'basic_text' };
    const vault = await createSessionVault({ service: 's', account: 'a', encryptor: basicText, store });
    expect(vault.kind).toBe('memory');
    expect(vault.persistent).toBe(false);
    await vault.save(session(Date.now()));
    expect(store.data.size).toBe(0);
    expect(encryptsForReal(basicText)).toBe(false);
    // A real keyring backend (gnome-libsecret, kwallet…), or macOS/Windows where the method does not exist: encrypted.
    expect(encryptsForReal({ ...aesEncryptor(), getSelectedStorageBackend: () => 'gnome_libsecret' })).toBe(true);
    expect(encryptsForReal(aesEncryptor())).toBe(true);
    expect(encryptsForReal({ ...aesEncryptor(false), getSelectedStorageBackend: () => 'gnome_libsecret' })).toBe(false);
  });

  it('drops a corrupt stored session', async () => {
    const store = memoryStore();
    const encryptor = aesEncryptor();
    const vault = await createSessionVault({ service: 's', account: 'a', encryptor, store });
    store.set('session.encrypted.a', encryptor.encryptString('{not json').toString('base64'));
    expect(await vault.load()).toBeNull();
  });

  // Skipped on a desktop without a Secret Service; CI provides one, so there it must run.
  it.skipIf(!keytar && !process.env.CI)('stores the session in the OS keychain (real Secret Service)', async () => {
    expect(keytar, 'no Secret Service: .ci/run starts gnome-keyring under dbus-run-session').not.toBeNull();
    const account = `http://127.0.0.1:${Math.floor(Math.random() * 60000)}`;
    const vault = await createSessionVault({ service: 'Back-office test', account, keytar });
    expect(vault.kind).toBe('keychain');
    await vault.save(session(Date.now()));
    expect(JSON.parse((await keytar!.getPassword('Back-office test', account))!).userId).toBe(7);
    const reopened = await createSessionVault({ service: 'Back-office test', account, keytar });
    expect((await reopened.load())?.refreshToken.value).toBe('eyJ-refresh-secret');
    await vault.clear();
    expect(await keytar!.getPassword('Back-office test', account)).toBeNull();
    // The device token (sign-in throttling's known-device lane) is its own keychain entry: sign-out keeps it.
    await vault.saveDeviceToken('http://api\u0000owner@test.local', 'eyJ-device');
    await vault.clear();
    expect(await reopened.loadDeviceToken('http://api\u0000owner@test.local')).toBe('eyJ-device');
    expect(await reopened.loadDeviceToken('http://api\u0000other@test.local')).toBeNull();
  });

  it('keeps device tokens apart from the session, per key, past sign-out, ciphertext only in the store', async () => {
    const now = Date.now();
    const store = memoryStore();
    const encryptor = aesEncryptor();
    for (const vault of [
      await createSessionVault({ service: 's', account: 'http://api', now: () => now }),
      await createSessionVault({ service: 's', account: 'http://api', encryptor, store, now: () => now }),
    ]) {
      await vault.save(session(now));
      await vault.saveDeviceToken('http://api\u0000owner@test.local', 'eyJ-device-secret');
      await vault.clear();
      expect(await vault.load()).toBeNull();
      expect(await vault.loadDeviceToken('http://api\u0000owner@test.local')).toBe('eyJ-device-secret');
      expect(await vault.loadDeviceToken('http://other\u0000owner@test.local')).toBeNull();
    }
    expect(JSON.stringify([...store.data.values()])).not.toContain('eyJ');
    expect([...store.data.keys()].every((key) => !key.slice('session.encrypted'.length).includes('.'))).toBe(true);
  });
});
