/** What the guard needs of an account, for one sign-in (token family). */
export interface GuardAccount {
  id: number;
  roles: string[];
  tokensValidAfter: Date | null;
  familyRevoked: boolean;
}

type Load = (accountId: number, familyId: string | undefined) => Promise<GuardAccount | undefined>;

interface Entry {
  value: Promise<GuardAccount | undefined>;
  /** performance.now() after which the entry is read again (Infinity while its read runs). */
  until: number;
}

/** Entries past which expired ones are swept (each is a few hundred bytes: one per signed-in session). */
const SWEEP_ABOVE = 10_000;

/**
 * The guard's accounts, kept a few seconds. On PGlite (one connection) every call's guard query otherwise waits
 * behind whatever write holds the database; a cached account lets the call go straight to its own work.
 *
 * What changes an account for the guard (roles, password, deletion, sessions ended or a sign-in revoked) calls
 * `changed` after its commit: this instance forgets the account at once, and `broadcast` tells the others (NOTIFY
 * on PostgreSQL, jobs/events.ts), which `forget` it when told. If a notification is lost (listener reconnecting),
 * the TTL bounds how long another instance may still let an old role in. A read still running when the account
 * changes is dropped with the entry: the next call reads the committed row.
 */
export class AccountCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: { ttlMs: number; load: Load; broadcast?: (accountId: number) => void }) {}

  get(accountId: number, familyId: string | undefined): Promise<GuardAccount | undefined> {
    const key = `${accountId}:${familyId ?? ''}`;
    const now = performance.now();
    const cached = this.entries.get(key);
    if (cached && cached.until > now) return cached.value;
    if (this.options.ttlMs <= 0) return this.options.load(accountId, familyId);
    const value = this.options.load(accountId, familyId);
    // Concurrent calls of one session share the read (its TTL counts from its answer); a failed read is not kept.
    const entry: Entry = { value, until: Infinity };
    if (this.entries.size >= SWEEP_ABOVE) this.sweep(now);
    this.entries.set(key, entry);
    value.then(
      () => (entry.until = performance.now() + this.options.ttlMs),
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /** The account changed (committed): forgotten here, and on the other instances. */
  changed(accountId: number): void {
    this.forget(accountId);
    this.options.broadcast?.(accountId);
  }

  /** Forgets the account on this instance (told by another). */
  forget(accountId: number): void {
    const prefix = `${accountId}:`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
  }
}
