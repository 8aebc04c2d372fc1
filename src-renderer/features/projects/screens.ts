import type { FeatureScreens } from '../../lib/screen-sources';
export const projectsScreens = {
  'projects.list': { load: () => import('./list/ProjectsListPage') },
  'projects.edit': { load: () => import('./ProjectEditPage') },
} satisfies FeatureScreens;
