import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { hashPassword, loadCommonPasswords, passwordProblem, verifyPassword } from '../../src-server/auth/passwords';

describe('password rules and hashing', () => {
  it('ships a list of well over 3,000 common passwords', async () => {
    expect((await loadCommonPasswords()).size).toBeGreaterThan(3000);
  });

  it('refuses short, common and over-long passwords in French; accepts 128 characters', async () => {
    expect(await passwordProblem('1234567')).toBe(MESSAGES.passwordTooShort);
    expect(await passwordProblem('PASSWORD1')).toBe(MESSAGES.passwordTooCommon);
    expect(await passwordProblem('x'.repeat(1025))).toBe(MESSAGES.passwordTooLong);
    expect(await passwordProblem('k9#'.repeat(43).slice(0, 128))).toBeNull();
  });

  it('salts scrypt hashes and verifies them', async () => {
    const [a, b] = await Promise.all([hashPassword('même mot de passe'), hashPassword('même mot de passe')]);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('même mot de passe', a)).toBe(true);
    expect(await verifyPassword('autre', a)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });
});
