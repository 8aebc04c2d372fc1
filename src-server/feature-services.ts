import type { Advert } from '@shared/contract/adverts';
import type { ArticleAudienceCriteria } from '@shared/contract/articles';
import type { ArticleCriterionLabel, CriteriaByLabel } from '@shared/rules/article-audience';
import type { SQL } from 'drizzle-orm';
import type { PopulationCriteria } from '@shared/rules/push';
import type { Database } from './db/client';

/** The audience engine's answers about app users and audiences (the audiences feature's engine). */
export interface AudienceMembership {
  /** The audiences an app user belongs to. */
  audiencesOf(userId: number): { id: number; name: string }[];
  /** An audience's criteria (Keyword triggers of search audiences are read from them). */
  audience(id: number): { criteria: readonly { label: string; value: string; type: string }[] } | undefined;
}

/** Advert writes offered by the adverts feature to the media uploads (same transaction, checks and history). */
export interface AdvertWrites {
  load(id: number): Promise<Advert>;
  /** Applies `change` to the locked advert and saves it; a throw inside leaves it unchanged. */
  change(id: number, account: { id: number } | null, change: (current: Advert) => Advert): Promise<Advert>;
}

/** An article's own audience (adverts-articles.md §2.5), kept by the audiences feature for the articles' calls. */
export interface ArticleAudienceService {
  get(articleId: number): Promise<ArticleAudienceCriteria>;
  setCriteria(articleId: number, criteria: CriteriaByLabel, account: { id: number } | null): Promise<ArticleAudienceCriteria>;
  search(label: ArticleCriterionLabel, term: string, limit: number): Promise<ArticleAudienceCriteria['criteria']>;
  /** Deletes the article's own audience once the article is gone (deleted or converted); answers how many went. */
  drop(articleId: number): Promise<number>;
}

/** The population as the push feature reads it, answered by the audience engine's index (docs/push.md). */
export interface PopulationSelection {
  count(criteria: PopulationCriteria): number;
  /** The users selected, ascending, as a portable serialized Roaring bitmap (a campaign's frozen recipients). */
  members(criteria: PopulationCriteria): Uint8Array;
  /** Some of these users' push tokens were removed: those left without one leave the index's PushToken set. */
  pushTokensRemoved(userIds: number[]): Promise<void>;
}

/**
 * Users staged in a table by another feature (the CSV list import), written into the population by the audiences
 * feature: same SQL, same node upserts and change notification as its own feed, and its engine current on return.
 */
export interface PopulationImport {
  /** Fills the stage's missing external_id from the existing user with that e-mail (the oldest one). */
  resolveByEmail(stage: { table: SQL; where: SQL }): Promise<void>;
  /**
   * Upserts every staged user in one transaction; `onProgress` runs inside it after each chunk (a throw undoes all).
   * With `short` (PGlite), each chunk is its own short transaction, undone if a later one fails or `onProgress`
   * throws, or at the next start if the process dies first; `short.committed` runs in the transaction that ends
   * the merge (what the caller must say only if the merge is kept: its job done).
   */
  mergeStaged(
    stage: { table: SQL; where: SQL },
    onProgress?: (written: number) => Promise<void> | void,
    short?: { committed(tx: Executor, result: { inserted: number; updated: number }): Promise<void> },
  ): Promise<{ inserted: number; updated: number }>;
}

type Executor = Pick<Database, 'execute'>;

/** What a write of audience or group definitions changed (ids), as its transaction reports it. */
export interface ChangedDefinitions {
  audiences?: number[];
  groups?: number[];
  deletedNodes?: number[];
}

/**
 * The audience history's part in the audiences feature (docs/audience-history.md): `before` and `after` run inside each
 * write's transaction, `connect` receives the audiences' writer (restoring goes through it, so the engine follows),
 * and `wrap` tells the recorder who made each request and through which operation.
 */
export interface AudienceHistoryHooks {
  before(tx: Executor): Promise<unknown>;
  after(tx: Executor, changed: ChangedDefinitions, before: unknown): Promise<void>;
  connect(write: <T>(work: (tx: Executor) => Promise<ChangedDefinitions & { result: T }>) => Promise<T>): void;
  wrap<H extends object>(handlers: H): H;
}

/**
 * Every service one server feature offers another: features never import each other's folders, they meet here.
 * A feature declares the names it needs and provides (src-server/feature-wiring.ts); it is handed exactly those it
 * needs, typed, once their providers are built. Nothing here is optional: a declared provider always provides.
 */
export interface FeatureServices {
  /** The audience engine's membership answers (adverts decisioning, the audience debug page). */
  audienceMembership: AudienceMembership;
  population: PopulationSelection;
  /**
   * Moves whenever the audience engine applies a change of app users' attributes (its own writes, other instances'
   * once followed, a rebuild): a cache of app-user fields read before it moved may be stale.
   */
  populationVersion: () => number;
  populationImport: PopulationImport;
  articleAudience: ArticleAudienceService;
  audienceHistory: AudienceHistoryHooks;
  /** The adverts an app user would be served (the audience debug page). */
  advertsForUser: (userId: number) => Promise<{ id: number; name: string }[]>;
  advertWrites: AdvertWrites;
  /** Builds the audience engine again from the database (once the demo population is written: src-server/demo). */
  rebuildAudienceEngine: () => Promise<unknown>;
}
