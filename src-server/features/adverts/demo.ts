import type { Clock } from '../../clock';
import type { Database } from '../../db/client';

/** Demo adverts and articles (`--demo`); filled in below. */
export async function seedAdvertDemo(_db: Database, _clock: Clock): Promise<void> {}
