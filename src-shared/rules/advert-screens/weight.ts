/** Weight slider (adverts-articles.md §2.2, §9). */

export const WEIGHT_MIN = 1;
export const WEIGHT_MAX = 10;
export const DEFAULT_WEIGHT = 5;

export function clampWeight(weight: number | null | undefined): number {
  if (weight == null || !Number.isFinite(weight)) return DEFAULT_WEIGHT;
  return Math.min(WEIGHT_MAX, Math.max(WEIGHT_MIN, Math.round(weight)));
}

/** The slider shows the weight × 10 percent: 5 → '50 %'. */
export const weightDisplay = (weight: number | null | undefined) => `${clampWeight(weight) * 10} %`;
