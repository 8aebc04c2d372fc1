import { sql } from 'drizzle-orm';
import { PUSH_TOKEN_LABEL } from '@shared/rules/push';
import { audienceRelationships, groupRelationships, toCriterion, type RelationshipRow } from '../queries/relationships';
import { param, rows, type Executor } from '../../../db/rows';
import { INDEXED_ITEM_LABELS, type AudienceIndex } from './bitmap-index';
import type { Criterion, GroupDefinition } from './semantics';

/**
 * How the audience engine reads the database: the build's aggregates (each one long statement, run side by side on
 * PostgreSQL), and the audience and group definitions.
 */

export interface AudienceDefinition {
  id: number;
  name: string;
  criteria: Criterion[];
}

/**
 * User ids aggregated by the database as 4-byte big-endian integers (string_agg of int4send): one bytea per
 * bitmap instead of a row per user, so a million users load without a million JavaScript objects.
 */
function userIds(bytes: Uint8Array): Uint32Array {
  const ids = new Uint32Array(bytes.byteLength >> 2);
  const view = new Uint8Array(ids.buffer);
  view.set(bytes.subarray(0, ids.length * 4));
  Buffer.from(ids.buffer).swap32();
  return ids;
}

/** Adds one attribute value's users; missing (null) and empty attributes match nothing, as in attributeValues. */
function addAttribute(index: AudienceIndex, label: string, value: string | null, ids: Uint8Array): void {
  if (value === null || value === '') return;
  const users = userIds(ids);
  index.addAttributeUsers(label, value, users);
  // Zip: the first two characters of the zipcode.
  if (label === 'Zipcode' && value.length >= 2) index.addAttributeUsers('Zip', value.slice(0, 2), users);
}

/**
 * Attribute bitmaps of the single-valued columns, grouped by the database in one pass over app_users. Together
 * with loadUserLists, must give exactly what semantics.ts attributeValues gives for each user (the property tests
 * compare the engine with SQL).
 */
export async function loadUserColumns(tx: Executor, index: AudienceIndex): Promise<void> {
  // One scan and one hash table per column (grouping sets): no per-user row reaches JavaScript.
  const columns = await rows<{ label: string; value: string | null; ids: Uint8Array }>(
    tx,
    sql`SELECT CASE WHEN grouping(profession_id) = 0 THEN 'Profession' WHEN grouping(specialty_id) = 0 THEN 'Specialty' WHEN grouping(title) = 0 THEN 'Title'
                    WHEN grouping(area) = 0 THEN 'Area' WHEN grouping(country_id) = 0 THEN 'Country' WHEN grouping(uga) = 0 THEN 'Uga' ELSE 'Workplace' END AS label,
               coalesce(profession_id::text, specialty_id::text, title, area, country_id::text, uga, workplace) AS value,
               string_agg(int4send(id), ''::bytea) AS ids
        FROM app_users GROUP BY GROUPING SETS ((profession_id), (specialty_id), (title), (area), (country_id), (uga), (workplace))`,
  );
  for (const { label, value, ids } of columns) addAttribute(index, label, value, ids);
}

/**
 * Zipcodes (and Zip) on their own: with tens of thousands of values, among the grouping sets above they made
 * PostgreSQL sort the million rows twice (35 s under load at 1,000,000 users) instead of hashing them all (7 s);
 * alone, one hash aggregate (5 s), on its own connection.
 */
export async function loadZipcodes(tx: Executor, index: AudienceIndex): Promise<void> {
  const zipcodes = await rows<{ value: string | null; ids: Uint8Array }>(
    tx,
    sql`SELECT zipcode AS value, string_agg(int4send(id), ''::bytea) AS ids FROM app_users GROUP BY zipcode`,
  );
  for (const { value, ids } of zipcodes) addAttribute(index, 'Zipcode', value, ids);
}

/**
 * Every user, and the bitmaps of the list attributes (roles, feeds, apps) and of the OS, in one scan: grouped by the
 * whole list, a few hundred distinct lists among a million users, each spread to its values here. Unnesting every
 * user's lists instead took a scan and a function call per user and list (1,000,000 users on PostgreSQL under load:
 * 11.5–16.5 s against 4.8–6.1 s; on PGlite 4–6 times as long).
 */
export async function loadUserLists(tx: Executor, index: AudienceIndex): Promise<void> {
  const groups = await rows<{ label: string; values: (string | null)[] | null; ids: Uint8Array | null }>(
    tx,
    sql`SELECT CASE WHEN grouping(roles) = 0 THEN 'Role' WHEN grouping(feeds) = 0 THEN 'Feed' WHEN grouping(apps) = 0 THEN 'App'
                    WHEN grouping(os) = 0 THEN 'Os' ELSE '' END AS label,
               CASE WHEN grouping(os) = 0 THEN ARRAY[os] ELSE coalesce(roles, feeds, apps) END AS "values",
               string_agg(int4send(id), ''::bytea) AS ids
        FROM app_users GROUP BY GROUPING SETS ((roles), (feeds), (apps), (os), ())`,
  );
  // The empty grouping set: every user (no ids when there is none, and then nothing else to add).
  const everyone = groups.find((group) => group.label === '')?.ids;
  if (!everyone) return;
  index.addUsers(userIds(everyone));
  for (const { label, values, ids } of groups) {
    if (label === '' || !values || !ids) continue;
    const users = userIds(ids);
    for (const value of new Set(values)) if (value) index.addAttributeUsers(label, value, users);
  }
  const [tokens] = await rows<{ ids: Uint8Array | null }>(
    tx,
    sql`SELECT string_agg(int4send(user_id), ''::bytea) AS ids FROM (SELECT DISTINCT user_id FROM app_user_push_tokens) t`,
  );
  if (tokens?.ids) addAttribute(index, PUSH_TOKEN_LABEL, 'any', tokens.ids);
}

/**
 * Event ladders of Advert and Document nodes. The database hands back, per (node, event), the user id of every
 * event (a bytea, duplicates included): a hash aggregate of a few thousand groups, no sort of millions of rows.
 * Counting per user is then a native sort of each id array and one pass over it; Auto is the same over all the
 * events of a node. Step k of a ladder holds the users with more than k events.
 */
export async function loadInteractions(tx: Executor, index: AudienceIndex, shard?: { of: number; part: number }): Promise<void> {
  const perEvent = await rows<{ nodeId: number; event: string; ids: Uint8Array }>(
    tx,
    sql`SELECT node_id AS "nodeId", event, string_agg(int4send(user_id), ''::bytea) AS ids FROM interaction_events
        WHERE node_id IN (SELECT id FROM nodes WHERE label = ANY(${param([...INDEXED_ITEM_LABELS])}::text[]))
          ${shard ? sql`AND node_id % ${shard.of} = ${shard.part}` : sql``}
        GROUP BY node_id, event`,
  );
  const byNode = new Map<number, Uint32Array[]>();
  for (const { nodeId, event, ids } of perEvent) {
    const users = userIds(ids);
    index.setLadder(nodeId, event, usersByCount(users));
    const list = byNode.get(nodeId);
    if (list) list.push(users);
    else byNode.set(nodeId, [users]);
  }
  for (const [nodeId, lists] of byNode) {
    if (lists.length === 1) {
      index.setLadder(nodeId, null, usersByCount(lists[0]));
      continue;
    }
    const all = new Uint32Array(lists.reduce((total, list) => total + list.length, 0));
    let offset = 0;
    for (const list of lists) {
      all.set(list, offset);
      offset += list.length;
    }
    index.setLadder(nodeId, null, usersByCount(all));
  }
}

/**
 * From the user id of every event (sorted here, in place) to the users having exactly each count, as typed arrays
 * (two passes over the sorted ids: no JavaScript array of millions of numbers for the collector to trace).
 */
function usersByCount(ids: Uint32Array): Map<number, Uint32Array> {
  ids.sort();
  const tally = new Map<number, number>();
  for (let start = 0; start < ids.length;) {
    let end = start + 1;
    while (end < ids.length && ids[end] === ids[start]) end += 1;
    tally.set(end - start, (tally.get(end - start) ?? 0) + 1);
    start = end;
  }
  const byCount = new Map<number, Uint32Array>();
  const filled = new Map<number, number>();
  for (const [count, users] of tally) {
    byCount.set(count, new Uint32Array(users));
    filled.set(count, 0);
  }
  for (let start = 0; start < ids.length;) {
    let end = start + 1;
    while (end < ids.length && ids[end] === ids[start]) end += 1;
    const count = end - start;
    const at = filled.get(count)!;
    byCount.get(count)![at] = ids[start];
    filled.set(count, at + 1);
    start = end;
  }
  return byCount;
}

export async function groupLabels(db: Executor, ids: number[] | null) {
  return rows<{ id: number; label: 'OrGroup' | 'AndGroup' }>(
    db,
    sql`SELECT g.node_id AS id, n.label FROM audience_groups g JOIN nodes n ON n.id = g.node_id ${ids ? sql`WHERE g.node_id = ANY(${param(ids)}::int[])` : sql``}`,
  );
}

export function groupDefinitions(members: RelationshipRow[], labels: { id: number; label: 'OrGroup' | 'AndGroup' }[]): Map<number, GroupDefinition> {
  const groups = new Map<number, GroupDefinition & { members: Criterion[] }>();
  for (const { id, label } of labels) groups.set(id, { label, members: [] });
  for (const member of members) groups.get(member.groupId!)?.members.push(toCriterion(member));
  return groups;
}

export function audienceDefinitions(relationships: RelationshipRow[], names: { id: number; name: string }[]): AudienceDefinition[] {
  const byId = new Map<number, AudienceDefinition>(names.map(({ id, name }) => [id, { id, name, criteria: [] }]));
  for (const relationship of relationships) byId.get(relationship.audienceId!)?.criteria.push(toCriterion(relationship));
  return [...byId.values()];
}

/** The groups and audiences definitions, read in the build's transaction (or a restore's). */
export async function loadDefinitions(tx: Executor, index: AudienceIndex, audiences: Map<number, AudienceDefinition>): Promise<void> {
  for (const [groupId, group] of groupDefinitions(await groupRelationships(tx, null), await groupLabels(tx, null))) index.setGroup(groupId, group);
  const names = await rows<{ id: number; name: string }>(tx, sql`SELECT id, name FROM audiences`);
  for (const definition of audienceDefinitions(await audienceRelationships(tx, null), names)) audiences.set(definition.id, definition);
}
