/**
 * Edits of one record by two people (docs/architecture.md, "Versions and conflicts"): the 409 a stale save gets,
 * the presence line, the local draft offer and the offline banner. The wording of the 409 follows the product
 * owner's sentence for adverts, « Cette publicité a été modifiée par {nom} à {heure} depuis que vous l'avez
 * ouverte. », with each record's own noun and agreement.
 */
import { notice } from './notice';

/** The records that carry a version, with how a sentence names them. */
export const VERSIONED_RECORDS = {
  advert: { demonstrative: 'Cette publicité', feminine: true },
  article: { demonstrative: 'Cet article', feminine: false },
  project: { demonstrative: 'Ce projet', feminine: false },
  target: { demonstrative: 'Cette ligne', feminine: true },
  audience: { demonstrative: 'Cette audience', feminine: true },
  group: { demonstrative: 'Ce groupe', feminine: false },
  bat: { demonstrative: 'Ce BAT', feminine: false },
  account: { demonstrative: 'Ce compte', feminine: false },
  labProject: { demonstrative: 'Ce projet', feminine: false },
  labTag: { demonstrative: 'Ce tag', feminine: false },
} as const;
export type VersionedRecord = keyof typeof VERSIONED_RECORDS;

/** Who changed a record when the account is gone (deleted since) or the change came from an import. */
const SOMEONE = 'un autre utilisateur';

export const CONFLICT_MESSAGES = {
  /** The 409 of a save, delete, publication or start based on a version that is no longer the record's. */
  recordChanged: (record: VersionedRecord, name: string | null, time: string) => {
    const { demonstrative, feminine } = VERSIONED_RECORDS[record];
    return `${demonstrative} a été ${feminine ? 'modifiée' : 'modifié'} par ${name ?? SOMEONE} à ${time} depuis que vous l'avez ${feminine ? 'ouverte' : 'ouvert'}.`;
  },
  /** A write giving the version it was based on twice, beside the record and inside it, with two values. */
  versionGivenTwice: (inside: string) =>
    `Deux versions différentes sont données, « version » et « ${inside} » : donnez la version sur laquelle la modification se base une seule fois, dans « version » à côté de l'enregistrement.`,
  /** A `version` put inside a part of the body that is not where this write reads it. */
  versionMisplaced: (place: string) =>
    `« version » n'est pas lue à cet endroit : donnez la version sur laquelle la modification se base dans « ${place} ».`,
  /** Shown while someone else has the same record open. */
  alsoEditing: (record: VersionedRecord, name: string) => {
    const { demonstrative } = VERSIONED_RECORDS[record];
    return `${name} modifie aussi ${demonstrative[0].toLowerCase()}${demonstrative.slice(1)}`;
  },
  /** The offer made when a record is reopened with a local draft. */
  resumeDraft: (savedAt: string) => `Reprendre le brouillon du ${savedAt}`,
  discardDraft: 'Supprimer le brouillon',
  /** Beside the offer when the record changed since the draft was written: resuming leads to the conflict view. */
  staleDraft:
    "Ce brouillon date d'avant la dernière version enregistrée : repris, son enregistrement montrera leurs modifications à côté des vôtres.",
  offline: 'Serveur injoignable — vos modifications sont conservées',
  /** « la mienne » / « la leur »: the user's value and the other person's, as the two choices read together. */
  keepMine: 'Garder la mienne',
  takeTheirs: 'Prendre la leur',
  keepAllMine: 'Garder toutes les miennes',
  takeAllTheirs: 'Prendre toutes les leurs',
  reloadRecord: 'Recharger',
  conflictTitle: 'Modifications en conflit',
  fieldColumn: 'Champ',
  yourValue: 'Votre valeur',
  theirValue: 'Leur valeur',
  emptyValue: '(vide)',
  yes: 'Oui',
  no: 'Non',
  /** Said under the conflict once every field is decided (or when only they changed what you did not). */
  mergedHint: 'Leurs autres modifications sont reprises dans le formulaire ; enregistrez pour garder les vôtres.',
  /** The header of an editor whose last save was refused. */
  notSaved: 'Non enregistré',
} as const;

export const CONFLICT_NOTICES = {
  offline: notice(CONFLICT_MESSAGES.offline, 'warning'),
} as const;

/** The time a conflict names, as staff read it (Paris time, 24 h). */
export function conflictTime(at: Date): string {
  return new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(at);
}
