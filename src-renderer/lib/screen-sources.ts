import type { ComponentType } from 'react';
import type { ScreenComponentKey } from '@shared/features';

/** A screen's component as a feature gives it: in the main chunk, or loaded on first use. */
export type ScreenSource = { component: ComponentType } | { load: () => Promise<{ default: ComponentType }> };

/**
 * A feature folder's screens (features/<folder>/screens.ts), keyed by the component keys of src-shared's feature
 * manifests: `satisfies FeatureScreens` rejects a key no manifest declares.
 */
export type FeatureScreens = Partial<Record<ScreenComponentKey, ScreenSource>>;
