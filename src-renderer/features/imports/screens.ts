export const importsScreens = { imports: { load: () => import('./ImportsPage') } };
