import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { CHUNK_RETRY_DELAYS_MS, CHUNK_TIMEOUT_MS, loadWithRetry, withChunkTimeout } from '../../src-renderer/app/chunk-timeout';
import { rolesLabel } from '../../src-renderer/features/admin/roles-label';
import { mergePage } from '../../src-renderer/lib/list';
import { canSubmitLogin } from '../../src-renderer/features/auth/login-form';

afterEach(() => vi.useRealTimers());

describe('lazy screens', () => {
  it("report 'Loading chunk failed' after 120 s, not before", async () => {
    vi.useFakeTimers();
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    let settled: string | null = null;
    withChunkTimeout(() => new Promise(() => undefined)).catch((error: Error) => (settled = error.message));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(MESSAGES.loadingChunkFailed);
  });

  it('pass a chunk that loads in time, and turn a failed import into the same message', async () => {
    await expect(withChunkTimeout(async () => 'screen')).resolves.toBe('screen');
    await expect(withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')))).rejects.toThrow(
      MESSAGES.loadingChunkFailed,
    );
  });
});

describe('chunk retries', () => {
  it('try a failing chunk a bounded number of times, with growing waits, then give up', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const failing = () => {
      attempts.push(Date.now());
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    };
    let failure: unknown = null;
    const started = Date.now();
    loadWithRetry(failing).catch((error: unknown) => (failure = error));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toHaveLength(CHUNK_RETRY_DELAYS_MS.length + 1);
    expect(attempts.map((at) => at - started)).toEqual([0, 1000, 4000]);
    expect(failure).toBeInstanceOf(TypeError);
  });

  it('stop retrying once the chunk arrives', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const flaky = () => (++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve('screen'));
    const result = loadWithRetry(flaky);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toBe('screen');
    expect(calls).toBe(2);
  });
});

describe('login form rule (spec §5)', () => {
  it('needs both fields to sign in, the username to reset, and nothing while loading', () => {
    expect(canSubmitLogin('signIn', '', '', false)).toBe(false);
    expect(canSubmitLogin('signIn', 'a@b.fr', '', false)).toBe(false);
    expect(canSubmitLogin('signIn', '', 'pw', false)).toBe(false);
    expect(canSubmitLogin('signIn', 'a@b.fr', 'pw', false)).toBe(true);
    expect(canSubmitLogin('signIn', 'a@b.fr', 'pw', true)).toBe(false);
    expect(canSubmitLogin('reset', 'a@b.fr', '', false)).toBe(true);
    expect(canSubmitLogin('reset', '  ', '', false)).toBe(false);
  });
});

describe('list loading (spec §4)', () => {
  it('replaces the list on skip 0 and appends on skip > 0, without duplicates', () => {
    const a = [{ id: 1 }, { id: 2 }];
    expect(mergePage(a, [{ id: 3 }], 0)).toEqual([{ id: 3 }]);
    expect(mergePage(a, [{ id: 2 }, { id: 3 }], 2)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('labels the roles multi-select with the count', () => {
    expect(rolesLabel(0)).toBe('Aucun rôle');
    expect(rolesLabel(1)).toBe('1 rôle');
    expect(rolesLabel(3)).toBe('3 rôles');
  });
});
