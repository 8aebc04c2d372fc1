/** Account administration (platform.md §2 Admin page, §6); none of these are quoted by the spec. */
export const ADMIN_MESSAGES = {
  /** Shown at the dialog's E-mail field (the answer names `username`), so it starts with the field's label. */
  emailAlreadyUsed: 'E-mail : un compte utilise déjà cette adresse',
  accountNotFound: 'Compte introuvable',
  cannotRemoveOwnAdmin: 'Vous ne pouvez pas retirer le rôle ADMIN de votre propre compte',
  cannotDeleteAdmin: 'Un compte ADMIN ne peut pas être supprimé',
  nameBlank: 'Le nom ne peut pas être vide',
} as const;
