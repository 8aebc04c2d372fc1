import { z } from 'zod';
import { PROJECT_STATUSES, TARGET_AMOUNT_MAX, TARGET_STATUSES, TARGET_TYPES } from '../../rules/projects';
import { shortText } from '../entities';

/**
 * Field types shared by the projects, targets, comments, briefings and estimates operations (spec §6: CSM, CSM_LEAD
 * and SALES read the Projects menu; its writes are refused to SALES without ADMIN, 403 'User not allowed'; comments
 * and briefings are not writes of §6: every reader writes their own).
 */

export const id = z.number().int().min(1).max(2_147_483_647);
/** Epoch seconds from 1970 to 2100; null clears the date (spec §4 "A cleared date gives null"). */
export const epochSeconds = z.number().int().min(0).max(4_102_444_800);
/** Euros with cents. */
export const amount = z.number().min(-TARGET_AMOUNT_MAX).max(TARGET_AMOUNT_MAX).multipleOf(0.01);
export const status = z.enum(TARGET_STATUSES);
export const targetType = z.enum(TARGET_TYPES);
export const projectStatus = z.enum(PROJECT_STATUSES);
export const order = z.enum(['ASC', 'DESC']).default('DESC');
export const textList = (max = 200) => z.array(shortText(max).min(1)).max(200);

export const keyAccountSchema = z.object({ id: z.number().int(), name: z.string() }).nullable();

const range = (value: z.ZodNumber) =>
  z
    .strictObject({ from: value, to: value })
    .refine((r) => r.from <= r.to, { message: 'la date de début doit précéder la date de fin', path: ['from'] });
export const dateRange = range(epochSeconds);
export const numberRange = z
  .strictObject({ min: z.number().min(-1e12).max(1e12), max: z.number().min(-1e12).max(1e12) })
  .refine((r) => r.min <= r.max, { message: 'minimum au-dessus du maximum', path: ['min'] });
