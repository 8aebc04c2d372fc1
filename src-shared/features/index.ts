import { adminFeature } from './admin';
import { advertMediaFeature } from './advert-media';
import { advertsFeature } from './adverts';
import { articlesFeature } from './articles';
import { audienceHistoryFeature } from './audience-history';
import { audiencesFeature } from './audiences';
import { authFeature } from './auth';
import { batFeature } from './bat';
import { inventoryFeature } from './inventory';
import type { OperationId } from '../contract';
import type { ComponentKeyOf, FeatureManifest, RegistryEntry } from './define';
import { laboratoryFeature } from './laboratory';
import { importsFeature } from './imports';
import { metaFeature } from './meta';
import { platformFeature } from './platform';
import { projectsFeature } from './projects';
import { presenceFeature } from './presence';
import { pushFeature } from './push';
import { setupFeature } from './setup';
import { storageFeature } from './storage';

export * from './define';

/**
 * The shared feature registry: one line per feature (tests/unit/registries.test.ts fails when a manifest of this
 * folder is missing). The screen registry, the upload formats and the message check are derived from it.
 */
const FEATURE_LIST = [
  platformFeature,
  authFeature,
  setupFeature,
  adminFeature,
  metaFeature,
  projectsFeature,
  inventoryFeature,
  advertsFeature,
  articlesFeature,
  advertMediaFeature,
  batFeature,
  audiencesFeature,
  audienceHistoryFeature,
  storageFeature,
  laboratoryFeature,
  importsFeature,
  pushFeature,
  presenceFeature,
] as const satisfies readonly FeatureManifest[];

export const FEATURES: readonly FeatureManifest[] = FEATURE_LIST;

type EntriesOf<Feature> = Feature extends { screens: readonly (infer Entry)[] } ? Entry : never;

/**
 * The component key of every screen the manifests declare: the renderer's feature screen maps
 * (src-renderer/features/<folder>/screens.ts) are typed against it, so a misspelt or retired screen id does not compile.
 */
export type ScreenComponentKey = ComponentKeyOf<EntriesOf<(typeof FEATURE_LIST)[number]>>;

/** Every screen and external link of every feature. */
export const FEATURE_SCREENS: readonly RegistryEntry[] = FEATURES.flatMap((feature) => feature.screens ?? []);

/**
 * The formats of each upload operation, for the page that picks the file on the web host (the renderer takes no
 * zod schemas from the contract). Equal to the contract's `multipart.formats` (tests/unit/storage-rules.test.ts).
 */
export const UPLOAD_FORMATS: Readonly<Partial<Record<OperationId, readonly string[]>>> = Object.assign(
  {},
  ...FEATURES.map((feature) => feature.uploads ?? {}),
);
