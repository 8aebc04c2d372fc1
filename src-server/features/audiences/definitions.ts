import type { Audience } from '@shared/contract/audiences/audiences';
import type { Group } from '@shared/contract/audiences/groups';
import type { Relationship, RelationshipInput } from '@shared/contract/audiences/shared';
import { MESSAGES } from '@shared/messages';
import { ITEM_EVENTS, isGroupLabel, type AudienceType } from '@shared/rules/audiences';
import type { Database } from '../../db/client';
import { staleVersion } from '../../db/versioning';
import { HttpError } from '../../errors';
import type { AudienceEngine } from './engine/engine';
import { reachableGroups, type Criterion } from './engine/semantics';
import { accountName, audienceRow, touchAudience, type AudienceRow } from './queries/audience-definitions';
import {
  audienceRelationships,
  deleteRelationshipsOf,
  groupRelationships,
  insertRelationships,
  type NewRelationship,
  type RelationshipRow,
} from './queries/relationships';
import { groupRow, lockGroup, touchGroup, type LockedGroup } from './queries/groups';
import { nodesById, upsertNodes } from './queries/nodes';
import type { Executor } from '../../db/rows';

/**
 * Audience and group definitions as the handlers of every resource of the feature share them: reading them the
 * way the API answers them, checking relationships before they are written, and the transaction every write of
 * definitions runs in (the engine and the history hooks follow it).
 */

/** What changed in a write of definitions, as the engine and the hooks learn it. */
export interface ChangedDefinitions {
  audiences?: number[];
  groups?: number[];
  deletedNodes?: number[];
}

/** A write of definitions: its work runs in one transaction; the engine follows after the commit. */
export type DefinitionsWriter = <T>(work: (tx: Executor) => Promise<ChangedDefinitions & { result: T }>) => Promise<T>;

/**
 * Called inside the transaction of every write of audiences and groups (the history feature records there, so a
 * change and its history commit together); `connect` hands the writer over (restoring a deleted audience).
 */
export interface DefinitionWriteHooks {
  before(tx: Executor): Promise<unknown>;
  after(tx: Executor, changed: ChangedDefinitions, before: unknown): Promise<void>;
  connect?(write: DefinitionsWriter): void;
}

/**
 * Runs a write of audience or group definitions: other instances are told which ones changed, and this
 * engine reloads them from the database after the commit, before the answer.
 */
export function definitionsWriter(db: Database, engine: AudienceEngine, hooks?: DefinitionWriteHooks): DefinitionsWriter {
  return async (work) => {
    let changed: Awaited<ReturnType<typeof work>> | undefined;
    await db.transaction(async (tx) => {
      await engine.ownTransaction(tx);
      const before = await hooks?.before(tx);
      changed = await work(tx);
      await hooks?.after(tx, changed, before);
      if (changed.deletedNodes?.length) await engine.publish(tx, { kind: 'nodesDeleted', payload: { ids: changed.deletedNodes } });
      if (changed.groups?.length) await engine.publish(tx, { kind: 'groups', payload: { ids: changed.groups } });
      if (changed.audiences?.length) await engine.publish(tx, { kind: 'audiences', payload: { ids: changed.audiences } });
    });
    engine.deleteNodes(changed!.deletedNodes ?? []);
    await engine.reloadGroups(db, changed!.groups ?? []);
    await engine.reloadAudiences(db, changed!.audiences ?? []);
    return changed!.result;
  };
}

// ---- reading ---------------------------------------------------------------------------------------------------

export function toRelationship(row: RelationshipRow): Relationship {
  const event = (row.event as Relationship['event']) ?? null;
  return {
    id: row.id,
    source: row.audienceId ?? row.groupId!,
    target: row.nodeId,
    node: { id: row.nodeId, label: row.label, name: row.name },
    type: row.type,
    kind: row.kind,
    event,
    caping: row.caping === null ? null : String(row.caping),
    action: event,
  };
}

const millis = (value: Date | string) => new Date(value).getTime();

/** An audience as the list and the editor show it, without its relationships; adverts (id, name) that use it (spec §3). */
export function audienceSummary(row: AudienceRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    area: row.area,
    createdAt: millis(row.createdAt),
    isUsed: row.isUsed,
    isInCatalog: row.isInCatalog,
    author: row.authorName,
    adverts: typeof row.adverts === 'string' ? (JSON.parse(row.adverts) as { id: number; name: string }[]) : row.adverts,
    roles: row.roles,
    version: row.version,
  };
}

export async function loadAudience(executor: Executor, id: number): Promise<Audience> {
  const row = await audienceRow(executor, id);
  if (!row) throw new HttpError(404, MESSAGES.audienceNotFound);
  const relationships = (await audienceRelationships(executor, [id])).map(toRelationship);
  const groupedRelationships: Record<string, Relationship[]> = {};
  for (const relationship of relationships) (groupedRelationships[relationship.node.label] ??= []).push(relationship);
  return { ...audienceSummary(row), relationships, groupedRelationships };
}

export async function loadGroup(executor: Executor, id: number, label?: string): Promise<Group> {
  const row = await groupRow(executor, id);
  if (!row || (label && row.label !== label)) throw new HttpError(404, MESSAGES.groupNotFound);
  const relationships = (await groupRelationships(executor, [id])).map(toRelationship);
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    relationships,
    labels: [...new Set(relationships.map((relationship) => relationship.node.label))],
    audiencesCount: row.audiencesCount,
    updatedAt: millis(row.updatedAt),
    version: row.version,
  };
}

/** An audience's row, locked for the write under way; 404 when it is not there. */
export async function lockedAudience(executor: Executor, id: number): Promise<AudienceRow> {
  const row = await audienceRow(executor, id, true);
  if (!row) throw new HttpError(404, MESSAGES.audienceNotFound);
  return row;
}

/** A group's name and label, locked for the write under way; 404 when it is not there. */
export async function lockedGroup(executor: Executor, id: number): Promise<LockedGroup> {
  const row = await lockGroup(executor, id);
  if (!row) throw new HttpError(404, MESSAGES.groupNotFound);
  return row;
}

/**
 * The version check of a write of a locked audience (docs/architecture.md, "Versions and conflicts"): 409 naming
 * who changed it and when, with the audience as it is now, when `basedOn` is not its version; then its next version.
 */
export async function claimAudience(executor: Executor, row: AudienceRow, basedOn: number | undefined, by: number | null): Promise<void> {
  if (basedOn !== undefined && row.version !== basedOn)
    throw staleVersion(
      'audience',
      { version: row.version, updatedAt: new Date(row.updatedAt), editorName: row.editorName },
      await loadAudience(executor, row.id),
    );
  await touchAudience(executor, row.id, by);
}

/** The same for a locked group. */
export async function claimGroup(executor: Executor, id: number, row: LockedGroup, basedOn: number | undefined, by: number | null): Promise<void> {
  if (basedOn !== undefined && row.version !== basedOn)
    throw staleVersion(
      'group',
      { version: row.version, updatedAt: new Date(row.updatedAt), editorName: row.editorName },
      await loadGroup(executor, id),
    );
  await touchGroup(executor, id, by);
}

/** The name an audience records as its author's ('' without an account). */
export async function authorName(executor: Executor, accountId: number | undefined): Promise<string> {
  if (!accountId) return '';
  return (await accountName(executor, accountId)) ?? '';
}

// ---- checking and writing relationships ------------------------------------------------------------------------

/**
 * Resolves and checks relationships before they are written: nodes exist with the label given, events fit the
 * label, Keyword only outside timeline audiences (and with the event 'search' on search audiences, spec §4), no
 * Area (the area field owns it), no group that contains the owner group.
 */
export async function resolveRelationships(
  executor: Executor,
  engine: AudienceEngine,
  inputs: readonly RelationshipInput[],
  owner: { audienceType: AudienceType | null } | { groupId: number },
): Promise<NewRelationship[]> {
  const nodes = new Map((await nodesById(executor, [...new Set(inputs.map((input) => input.node.id))])).map((node) => [node.id, node]));
  const resolved = inputs.map((input, index): NewRelationship => {
    const node = nodes.get(input.node.id);
    const where = `relationships.${index}`;
    if (!node || node.label !== input.node.label) throw new HttpError(400, MESSAGES.nodeNotFound, {}, `${where}.node`);
    if (node.label === 'Area') throw new HttpError(400, MESSAGES.areaInRelationships, {}, `${where}.node`);
    if (input.event && !(ITEM_EVENTS[node.label as keyof typeof ITEM_EVENTS] as readonly string[] | undefined)?.includes(input.event)) {
      throw new HttpError(400, MESSAGES.eventNotForLabel, {}, `${where}.event`);
    }
    let { type, event } = input;
    if (node.label === 'Keyword' && 'audienceType' in owner) {
      if (owner.audienceType === 'timeline') throw new HttpError(400, MESSAGES.keywordOnTimeline, {}, `${where}.node`);
      if (owner.audienceType === 'search') [type, event] = ['SEARCH', 'search'];
    }
    return { nodeId: node.id, type, kind: input.kind, event: event ?? null, caping: input.caping ?? null };
  });
  if ('groupId' in owner) {
    const groupIds = resolved
      .filter((relationship) => isGroupLabel(nodes.get(relationship.nodeId)!.label))
      .map((relationship) => relationship.nodeId);
    const members = groupIds.map((id) => ({ nodeId: id, label: nodes.get(id)!.label })) as Criterion[];
    if (groupIds.includes(owner.groupId) || reachableGroups(members, (id) => engine.index.group(id)).has(owner.groupId)) {
      throw new HttpError(400, MESSAGES.groupCycle);
    }
  }
  // The same node twice is one relationship (spec §4: a relationship is not added to a group twice).
  return [...new Map(resolved.map((relationship) => [relationship.nodeId, relationship])).values()];
}

/** The required AND relationship to an area's node (made on first use). */
export async function areaRelationship(executor: Executor, area: string): Promise<NewRelationship> {
  const [node] = await upsertNodes(executor, [{ label: 'Area', value: area, name: area }]);
  return { nodeId: node.id, type: 'AND', kind: 'required', event: null, caping: null };
}

/** Replaces an audience's relationships, keeping exactly one Area relationship for its area. */
export async function writeAudienceRelationships(executor: Executor, audienceId: number, area: string, list: NewRelationship[]): Promise<void> {
  await deleteRelationshipsOf(executor, { audienceId });
  await insertRelationships(executor, { audienceId }, [await areaRelationship(executor, area), ...list]);
}
