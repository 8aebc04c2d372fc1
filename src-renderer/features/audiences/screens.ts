import type { FeatureScreens } from '../../lib/screen-sources';
export const audiencesScreens = {
  'audiences.list': { load: () => import('./AudiencesListPage') },
  'audiences.edit': { load: () => import('./AudienceEditPage') },
  'audiences.debug': { load: () => import('./AudienceDebugPage') },
} satisfies FeatureScreens;
