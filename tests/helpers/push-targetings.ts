import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { AREAS } from '@shared/rules/audiences';
import type { PushWhere } from '@shared/rules/push';

/**
 * A random push targeting over the reference lists, for the count's test and bench: about `professions`
 * professions, and half the time specialties, titles or os skipped by an empty first entry (§5).
 */
export function randomTargeting(next: () => number, professions: number): PushWhere {
  const pick = <T>(list: readonly T[], most: number) => list.filter(() => next() < most / list.length);
  return {
    area: AREAS[Math.floor(next() * AREAS.length)],
    professions: pick(
      PROFESSIONS.map((item) => item.id),
      professions,
    ),
    specialties:
      next() < 0.5
        ? ['']
        : pick(
            SPECIALTIES.map((item) => item.id),
            10,
          ),
    titles: next() < 0.5 ? [''] : pick(['DOCTOR', 'STUDENT', 'PROFESSIONAL'], 2),
    os: next() < 0.5 ? [''] : pick(['iOS', 'Android'], 1),
    expert: (['all', 'experts', 'not-experts'] as const)[Math.floor(next() * 3)],
  };
}
