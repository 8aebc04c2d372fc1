export const projectsScreens = {
  'projects.list': { load: () => import('./list/ProjectsListPage') },
  'projects.edit': { load: () => import('./ProjectEditPage') },
};
