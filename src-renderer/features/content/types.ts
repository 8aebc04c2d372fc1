import type { Funnel } from '@shared/contract/adverts';
import type { ArticleAudienceCriteria } from '@shared/contract/articles';
import type { BatSummary } from '@shared/contract/bat';
import type { Advert, Article, HistoryEntry } from '@shared/contract/content';
import type { ArticleCriterionLabel, CriteriaByLabel, CriterionNode } from '@shared/rules/article-audience';
import type { DelayReason } from '@shared/rules/campaigns';
import type { IpcResult } from '@shared/ipc';

/**
 * What the advert and article screens share (adverts-articles.md §2.1–§2.5): the same list, the same editor and
 * sections, on two sets of calls. Each feature gives its calls as a ContentApi; the screens here never name an
 * operation, so adverts and articles stay two features that do not import each other.
 */
export type ContentKind = 'advert' | 'article';

/** An item as the editor holds it: an advert or an article, with the fields of both readable. */
export type ContentItem = Partial<Omit<Advert, 'type' | '_$audiences' | 'maxViews'>> &
  Partial<Omit<Article, 'type' | '_$audiences' | 'maxViews'>> & {
    id?: number;
    /** Null while the field is emptied: the save refuses it at the field rather than putting 0 in its place. */
    maxViews?: number | null;
    type?: string | null;
    _$audiences?: { id: number; name: string; roles: string[]; label?: string }[];
    /** Articles: the criteria of their own audience (§2.5), held by the editor and saved with the item. */
    _$criteria?: CriterionNode[];
  };

export interface PublishRequest {
  publish: boolean;
  updateDates: boolean;
  delayReason?: DelayReason;
  /** The version the publication is based on (docs/architecture.md, "Versions and conflicts"). */
  version?: number;
}

export interface ContentApi {
  kind: ContentKind;
  /** Route of the list and of the editor of an id. */
  listPath: string;
  editPath: (id: number | 'new') => string;
  /** Route of the other kind's editor, where a conversion lands. */
  convertedPath: (id: number) => string;
  load(id: number): Promise<IpcResult<ContentItem>>;
  create(item: ContentItem, audienceIds: number[]): Promise<IpcResult<ContentItem>>;
  /** Saves the fields; `audienceIds` when the audiences changed (saved with the fields, in one call). */
  update(id: number, item: ContentItem, audienceIds: number[] | null): Promise<IpcResult<ContentItem>>;
  publish(id: number, request: PublishRequest): Promise<IpcResult<ContentItem>>;
  updateProperty(id: number, prop: string, value: unknown): Promise<IpcResult<ContentItem>>;
  duplicate(id: number): Promise<IpcResult<ContentItem>>;
  /** Deletes; with the version the user saw, refused (409) when the item changed since. */
  remove(id: number, version?: number): Promise<IpcResult<unknown>>;
  convert(id: number): Promise<IpcResult<{ id: number }>>;
  history?(id: number): Promise<IpcResult<HistoryEntry[]>>;
  restore?(id: number, entryId: number): Promise<IpcResult<ContentItem>>;
  funnels?: {
    get(id: number): Promise<IpcResult<Funnel | null>>;
    create(id: number): Promise<IpcResult<Funnel>>;
    remove(id: number, funnelUuid: string): Promise<IpcResult<unknown>>;
    append(id: number, funnelUuid: string, newAdvertId: number): Promise<IpcResult<Funnel>>;
    updateMinViews(startId: number, funnelUuid: string, nextAdvertId: number, minViews: number): Promise<IpcResult<Funnel>>;
    search(term: string): Promise<IpcResult<{ id: number; name: string; type: string | null; published: boolean }[]>>;
  };
  resetStory?(id: number): Promise<IpcResult<{ message: string }>>;
  /** Story screens added and removed on the server (spec §7); the order is saved with the item. */
  storyScreens?: {
    add(id: number): Promise<IpcResult<ContentItem>>;
    remove(id: number, screenId: number): Promise<IpcResult<ContentItem>>;
  };
  /** Adverts: their proof's state (docs/content.md, BAT proofs), shown on the toolbar beside 'Page projet'. */
  proofSummary?(id: number): Promise<IpcResult<BatSummary>>;
  /** Articles: their own audience's criteria (§2.5), read and replaced with the item. */
  criteria?: {
    get(id: number): Promise<IpcResult<ArticleAudienceCriteria>>;
    set(id: number, criteria: CriteriaByLabel): Promise<IpcResult<ArticleAudienceCriteria>>;
    search(label: ArticleCriterionLabel, term: string): Promise<IpcResult<CriterionNode[]>>;
  };
}

/** The story screen calls of an advert (§2.3): add and delete a screen. */
export type StoryScreensApi = NonNullable<ContentApi['storyScreens']>;
