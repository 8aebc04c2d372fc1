import type { FeatureScreens } from '../../lib/screen-sources';
export const documentsScreens = { cdnDocs: { load: () => import('./DocumentsPage') } } satisfies FeatureScreens;
