import type { Account } from '@shared/contract';
import { isRole } from '@shared/roles';
import { accounts } from '../db/schema';

/**
 * A staff account as the API answers it (the contract's accountSchema), from its row: the one mapping of the
 * administration's reads and writes and of the setup's first administrator.
 */

/** The columns an Account is made of, for a select or a returning. */
export const accountColumns = {
  id: accounts.id,
  uuid: accounts.uuid,
  name: accounts.name,
  nickname: accounts.nickname,
  email: accounts.email,
  roles: accounts.roles,
};

/** A row holding those columns; the version when the query read it. */
export interface AccountFields {
  id: number;
  uuid: string;
  name: string;
  nickname: string;
  email: string;
  roles: string[];
  version?: number;
}

/** The row as the API answers it: the e-mail is also the username, roles the database holds but no longer knows dropped. */
export function toAccount(row: AccountFields): Account {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    nickname: row.nickname,
    username: row.email,
    email: row.email,
    roles: row.roles.filter(isRole),
    ...(row.version === undefined ? {} : { version: row.version }),
  };
}
