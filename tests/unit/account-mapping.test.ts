import { describe, expect, it } from 'vitest';
import { accountSchema } from '@shared/contract';
import { toAccount } from '../../src-server/accounts/account';

const row = { id: 7, uuid: '0b5cbb4e-3c1b-4bd7-9f55-8f1bd1c0f2a4', name: 'Chloé Martin', nickname: 'Chloé', email: 'chloe@example.org' };

describe('toAccount (src-server/accounts/account.ts): the row → Account mapping of admin and setup', () => {
  it('answers the e-mail as the username, and the version when it was read', () => {
    const account = toAccount({ ...row, roles: ['CSM', 'ADMIN'], version: 3 });
    expect(account).toEqual({ ...row, username: 'chloe@example.org', roles: ['CSM', 'ADMIN'], version: 3 });
    expect(accountSchema.parse(account)).toEqual(account);
  });

  it('drops a role the product no longer knows, and has no version when none was read', () => {
    const account = toAccount({ ...row, roles: ['CSM_LEAD', 'OLD_ROLE'] });
    expect(account.roles).toEqual(['CSM_LEAD']);
    expect('version' in account).toBe(false);
  });
});
