import { z } from 'zod';
import { AREAS, AUDIENCE_TYPES, EVENTS, NODE_LABELS, RELATIONSHIP_KINDS, RELATIONSHIP_TYPES } from '../../rules/audiences';

/**
 * Field types and the node and relationship schemas shared by the audiences, groups, nodes and population
 * operations. Audiences are read from the Audiences menu (spec §6) and written by CSM_LEAD and ADMIN only.
 */

export const id = z.number().int().min(1).max(2_147_483_647);
export const nodeLabel = z.enum(NODE_LABELS);
export const area = z.enum(AREAS);
export const audienceType = z.enum(AUDIENCE_TYPES);
export const event = z.enum(EVENTS);
/** "a number typed as text" (spec §3): 3 or '3'; null or absent is 1. */
const caping = z
  .union([z.number(), z.string().regex(/^\d{1,6}$/, 'nombre entier attendu')])
  .transform(Number)
  .pipe(z.number().int().min(1).max(1_000_000));

// ---- nodes and relationships ---------------------------------------------------------------------------------

export const nodeSchema = z.object({ id: z.number().int(), label: nodeLabel, name: z.string() });
export type AudienceNode = z.infer<typeof nodeSchema>;

/** A relationship as the editor sends it: to a node, with its type, kind ('req' is 'required'), event and caping. */
export const relationshipInputSchema = z.strictObject({
  node: z.strictObject({ label: nodeLabel, id }),
  type: z.enum(RELATIONSHIP_TYPES).default('AND'),
  kind: z
    .enum(RELATIONSHIP_KINDS)
    .default('required')
    .transform((kind) => (kind === 'req' ? 'required' : kind)),
  /** Absent or null: Auto, any event of the node. */
  event: event.nullish(),
  caping: caping.nullish(),
});
export type RelationshipInput = z.output<typeof relationshipInputSchema>;

export const relationshipSchema = z.object({
  id: z.number().int(),
  /** The audience or group the relationship belongs to. */
  source: z.number().int(),
  target: z.number().int(),
  node: nodeSchema,
  type: z.enum(RELATIONSHIP_TYPES),
  kind: z.enum(['required', 'not']),
  event: event.nullable(),
  /** Spec §3: a number typed as text; null is 1. */
  caping: z.string().nullable(),
  /** The event again, under the name the wire uses (spec §3 "on the wire action"). */
  action: event.nullable(),
});
export type Relationship = z.infer<typeof relationshipSchema>;

export const relationshipsField = z.array(relationshipInputSchema).max(5_000);
