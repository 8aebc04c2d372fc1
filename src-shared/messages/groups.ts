import { notice } from './notice';

/** Group list, group editor and test accounts (audiences-projects-tools.md §2, §8). */
export const GROUP_MESSAGES = {
  // Spec texts, letter for letter.
  groupDisplayLimited: 'Affichage limité à 40 items',
  searchAccountPlaceholder: 'Rechercher un compte',
  confirmResetInteractions: 'Réinitialiser les interactions ?',
  // Ours (the spec quotes none for these).
  groupCreated: 'Groupe {name} créé',
  /** The new-group dialog's button (docs/content.md, field labels: the spec's 'Create' button, in French as the screen is). */
  createGroup: 'Créer',
  groupSaved: 'Groupe enregistré',
  /** At the name field when it is empty or blank; the server answers the same for PUT/POST /v2/group. */
  groupNameBlank: 'Nom : ne peut pas être vide',
  groupDuplicated: 'Groupe {name} dupliqué',
  groupDeleted: 'Groupe {name} supprimé',
  confirmDeleteGroup: 'Supprimer le groupe « {name} » ?',
} as const;

const named = (template: string, name: string) => template.replace('{name}', name);

export const GROUP_NOTICES = {
  created: (name: string) => notice(named(GROUP_MESSAGES.groupCreated, name), 'success'),
  saved: notice(GROUP_MESSAGES.groupSaved, 'success'),
  duplicated: (name: string) => notice(named(GROUP_MESSAGES.groupDuplicated, name), 'success'),
  deleted: (name: string) => notice(named(GROUP_MESSAGES.groupDeleted, name), 'success'),
  /** The server's error as an error toast (spec §8 "Other server errors are shown as an error toast"). */
  failed: notice('', 'error'),
  /** Spec §8: a test-account search or reset failure, as an error toast of 3.5 s. */
  accountFailed: notice('', 'error', 3500),
} as const;
