import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Session } from '@shared/contract';
import { sessionSchema } from '@shared/contract';

/** A session as kept: with the API it was issued by (`api`), so that another API is never handed its tokens. */
export type StoredSession = Session & { api?: string };
const storedSessionSchema = sessionSchema.extend({ api: z.string().optional() });

export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Electron's safeStorage has this shape. */
export interface Encryptor {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only (Electron's safeStorage docs): which secret store backs the key; elsewhere absent. */
  getSelectedStorageBackend?(): string;
}

/**
 * Whether safeStorage really encrypts. On Linux without a Secret Service or KWallet, Electron reports encryption
 * as available but picks the `basic_text` backend, whose key is a constant written in Chromium's source
 * (safeStorage docs, "getSelectedStorageBackend"): that is plaintext by another name, so it counts as none.
 */
export function encryptsForReal(encryptor: Encryptor): boolean {
  if (!encryptor.isEncryptionAvailable()) return false;
  return encryptor.getSelectedStorageBackend?.() !== 'basic_text';
}

/** electron-store has this shape. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export type VaultKind = 'keychain' | 'encrypted-store' | 'memory';

export interface SessionVault {
  readonly kind: VaultKind;
  /** False for memory only: the session will not survive a restart, and the user is told so. */
  readonly persistent: boolean;
  load(): Promise<StoredSession | null>;
  save(session: StoredSession): Promise<void>;
  clear(): Promise<void>;
  /**
   * The device token the API gave this device at a sign-in (`key`: the API and the username), sent with the next
   * sign-ins: the known device's own throttling lane. Kept apart from the session, so signing out keeps it.
   */
  loadDeviceToken(key: string): Promise<string | null>;
  saveDeviceToken(key: string, token: string): Promise<void>;
}

/**
 * keytar is native: it may be missing (no libsecret) or have no Secret Service to talk to. The probe has a time
 * limit because a Secret Service that waits on an unlock prompt nobody sees would otherwise hang the start-up.
 */
export async function loadKeytar(probeTimeoutMs = 5_000): Promise<KeytarLike | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const module = (await import('keytar')) as unknown as { default?: KeytarLike } & KeytarLike;
    const keytar = module.default ?? module;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('keychain probe timed out')), probeTimeoutMs);
    });
    await Promise.race([keytar.getPassword('backoffice-probe', 'probe'), timedOut]);
    return keytar;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** The stored text back to a Session, or null when it is corrupt or the 1-day session is over. */
function decode(text: string | null | undefined, now: () => number): StoredSession | null {
  if (!text) return null;
  try {
    const session = storedSessionSchema.parse(JSON.parse(text));
    return Date.parse(session.refreshToken.expiresAt) > now() ? session : null;
  } catch {
    return null;
  }
}

const STORE_KEY = 'session.encrypted';
/** A device token's key as a name without dots (electron-store reads dots as nesting), one per API and username. */
const deviceName = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * The session store of the desktop app: the OS keychain first, else Electron safeStorage into electron-store
 * (only ciphertext on disk) when it truly encrypts (encryptsForReal), else memory. Never plaintext on disk.
 */
export async function createSessionVault(options: {
  service: string;
  account: string;
  keytar?: KeytarLike | null;
  encryptor?: Encryptor;
  store?: KeyValueStore;
  now?: () => number;
}): Promise<SessionVault> {
  const now = options.now ?? Date.now;
  const { keytar, encryptor, store, service, account } = options;

  if (keytar) {
    const vault: SessionVault = {
      kind: 'keychain',
      persistent: true,
      async load() {
        // A keychain that became unreachable (locked, D-Bus gone) means "no session": the user signs in again.
        const stored = await keytar.getPassword(service, account).catch(() => null);
        const session = decode(stored, now);
        if (!session && stored) await vault.clear();
        return session;
      },
      async save(session) {
        await keytar.setPassword(service, account, JSON.stringify(session));
      },
      async clear() {
        await keytar.deletePassword(service, account).catch(() => false);
      },
      async loadDeviceToken(key) {
        return keytar.getPassword(service, `${account}.device.${deviceName(key)}`).catch(() => null);
      },
      async saveDeviceToken(key, token) {
        await keytar.setPassword(service, `${account}.device.${deviceName(key)}`, token);
      },
    };
    return vault;
  }

  if (encryptor && store && encryptsForReal(encryptor)) {
    const key = `${STORE_KEY}.${account}`;
    const vault: SessionVault = {
      kind: 'encrypted-store',
      persistent: true,
      async load() {
        const stored = store.get(key);
        let session: StoredSession | null = null;
        if (typeof stored === 'string') {
          try {
            session = decode(encryptor.decryptString(Buffer.from(stored, 'base64')), now);
          } catch {
            session = null;
          }
        }
        if (!session) store.delete(key);
        return session;
      },
      async save(session) {
        store.set(key, encryptor.encryptString(JSON.stringify(session)).toString('base64'));
      },
      async clear() {
        store.delete(key);
      },
      async loadDeviceToken(deviceKey) {
        const stored = store.get(`${STORE_KEY}-device-${deviceName(deviceKey)}`);
        try {
          return typeof stored === 'string' ? encryptor.decryptString(Buffer.from(stored, 'base64')) : null;
        } catch {
          return null;
        }
      },
      async saveDeviceToken(deviceKey, token) {
        store.set(`${STORE_KEY}-device-${deviceName(deviceKey)}`, encryptor.encryptString(token).toString('base64'));
      },
    };
    return vault;
  }

  let held: StoredSession | null = null;
  const devices = new Map<string, string>();
  return {
    kind: 'memory',
    persistent: false,
    async load() {
      held = held && decode(JSON.stringify(held), now);
      return held;
    },
    async save(session) {
      held = session;
    },
    async clear() {
      held = null;
    },
    async loadDeviceToken(key) {
      return devices.get(key) ?? null;
    },
    async saveDeviceToken(key, token) {
      devices.set(key, token);
    },
  };
}
