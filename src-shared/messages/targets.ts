/**
 * The flat list of actions, /targets (audiences-projects-tools.md §2 Targets list; docs/projects.md, Targets list): the spec's
 * columns under French headers, the project grid's wherever the grid has the column.
 */
export const TARGET_LIST_HEADERS = {
  projectName: 'Projet',
  advertId: 'Pub / outil',
  actionCode: 'Code action',
  status: 'Statut',
  type: 'Type',
  populationCategory: 'Spé',
  populationSample: 'Ciblage',
  populationSize: 'Population',
  startDate: 'Début',
  endDate: 'Fin',
  goal: 'Objectif',
  checkDate: 'Deadline sortie KPIs',
} as const;
