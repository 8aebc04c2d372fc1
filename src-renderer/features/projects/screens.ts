export const projectsScreens = {
  'projects.list': { load: () => import('./ProjectsListPage') },
  'projects.edit': { load: () => import('./ProjectEditPage') },
};
