export const targetsScreens = { 'projects.targets': { load: () => import('./TargetsPage') } };
