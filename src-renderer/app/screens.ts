import type { ComponentType } from 'react';
import type { ScreenComponentKey } from '@shared/features';
import { screenEntries } from '@shared/screens';
import { aboutScreens } from '../features/about/screens';
import { adminScreens } from '../features/admin/screens';
import { advertsScreens } from '../features/adverts/screens';
import { articlesScreens } from '../features/articles/screens';
import { audiencesScreens } from '../features/audiences/screens';
import { authScreens } from '../features/auth/screens';
import { batScreens } from '../features/bat/screens';
import { documentsScreens } from '../features/documents/screens';
import { forbiddenScreens } from '../features/forbidden/screens';
import { groupsScreens } from '../features/groups/screens';
import { laboratoryScreens } from '../features/laboratory/screens';
import { importsScreens } from '../features/imports/screens';
import { inventoryScreens } from '../features/inventory/screens';
import { projectsScreens } from '../features/projects/screens';
import { pushScreens } from '../features/push/screens';
import { setupScreens } from '../features/setup/screens';
import { targetsScreens } from '../features/targets/screens';
import { testAccountsScreens } from '../features/test-accounts/screens';
import { registerScreenPreloader } from '../lib/screen-preload';
import type { FeatureScreens, ScreenSource } from '../lib/screen-sources';
import { lazyScreen, type LazyScreen } from './lazy';

/**
 * The renderer's screen registry: one line per feature folder that has screens (features/<folder>/screens.ts
 * maps the screen ids of src-shared's feature manifests to their components). tests/unit/registries.test.ts fails
 * when a folder's manifest is missing here; tests/renderer/routes.test.tsx when a screen has no component.
 */
const FEATURE_SCREENS: readonly FeatureScreens[] = [
  authScreens,
  setupScreens,
  forbiddenScreens,
  aboutScreens,
  adminScreens,
  projectsScreens,
  inventoryScreens,
  targetsScreens,
  advertsScreens,
  articlesScreens,
  batScreens,
  audiencesScreens,
  groupsScreens,
  testAccountsScreens,
  importsScreens,
  documentsScreens,
  laboratoryScreens,
  pushScreens,
];

const lazyScreens = new Map<string, LazyScreen<object>>();

/** The component of each screen, by its component key (a screen id): lazy ones share one loader per screen. */
export const SCREEN_COMPONENTS: Readonly<Partial<Record<string, ComponentType>>> = Object.fromEntries(
  FEATURE_SCREENS.flatMap((screens) =>
    Object.entries(screens).flatMap(([key, source]: [string, ScreenSource | undefined]) => {
      if (!source) return [];
      if ('component' in source) return [[key, source.component]];
      const screen = lazyScreen(source.load);
      lazyScreens.set(key, screen);
      return [[key, screen]];
    }),
  ),
);

/** Screens fetched while the user types the password, so the first screen opens without waiting. */
const PRELOADED_ON_LOGIN: readonly string[] = [
  'admin' satisfies ScreenComponentKey,
  ...screenEntries()
    .filter((screen) => screen.landing)
    .map((screen) => screen.component),
];

/** Fetches the screens' chunks while the user types the password, so the first screen opens without waiting. */
export function preloadScreens(): void {
  for (const key of PRELOADED_ON_LOGIN) void lazyScreens.get(key)?.preload();
}

registerScreenPreloader((key) => void lazyScreens.get(key)?.preload());
