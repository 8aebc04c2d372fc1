/** Reference data served by GET /meta. Ids are stable: the mobile app and saved targeting refer to them. */

export interface ReferenceItem {
  readonly id: number;
  readonly name: string;
}

/** The 11 professions of spec §3, with the spec's ids. */
export const PROFESSIONS: readonly ReferenceItem[] = [
  { id: 2, name: 'Médecin' },
  { id: 3, name: 'Infirmier' },
  { id: 4, name: 'Pharmacien' },
  { id: 5, name: 'Dentiste' },
  { id: 6, name: 'Sage-femme' },
  { id: 7, name: 'Patient' },
  { id: 8, name: 'Autre profession de santé' },
  { id: 9, name: 'Kinésithérapeute' },
  { id: 10, name: 'Préparateur en pharmacie' },
  { id: 11, name: 'Secrétaire médicale' },
  { id: 12, name: 'Pédicure-podologue' },
];

/**
 * French medical specialties, after the public list of specialties of the Ordre des médecins / the DES
 * (diplômes d'études spécialisées). Ids never change once published; new ones are appended.
 */
export const SPECIALTIES: readonly ReferenceItem[] = [
  { id: 1, name: 'Médecine générale' },
  { id: 2, name: 'Allergologie' },
  { id: 3, name: 'Anatomie et cytologie pathologiques' },
  { id: 4, name: 'Anesthésie-réanimation' },
  { id: 5, name: 'Biologie médicale' },
  { id: 6, name: 'Cardiologie et maladies vasculaires' },
  { id: 7, name: 'Chirurgie maxillo-faciale' },
  { id: 8, name: 'Chirurgie orale' },
  { id: 9, name: 'Chirurgie orthopédique et traumatologique' },
  { id: 10, name: 'Chirurgie pédiatrique' },
  { id: 11, name: 'Chirurgie plastique, reconstructrice et esthétique' },
  { id: 12, name: 'Chirurgie thoracique et cardiovasculaire' },
  { id: 13, name: 'Chirurgie vasculaire' },
  { id: 14, name: 'Chirurgie viscérale et digestive' },
  { id: 15, name: 'Dermatologie et vénéréologie' },
  { id: 16, name: 'Endocrinologie, diabétologie, nutrition' },
  { id: 17, name: 'Génétique médicale' },
  { id: 18, name: 'Gériatrie' },
  { id: 19, name: 'Gynécologie médicale' },
  { id: 20, name: 'Gynécologie obstétrique' },
  { id: 21, name: 'Hématologie' },
  { id: 22, name: 'Hépato-gastro-entérologie' },
  { id: 23, name: 'Maladies infectieuses et tropicales' },
  { id: 24, name: 'Médecine cardiovasculaire' },
  { id: 25, name: "Médecine d'urgence" },
  { id: 26, name: 'Médecine et santé au travail' },
  { id: 27, name: 'Médecine intensive-réanimation' },
  { id: 28, name: 'Médecine interne et immunologie clinique' },
  { id: 29, name: 'Médecine légale et expertises médicales' },
  { id: 30, name: 'Médecine nucléaire' },
  { id: 31, name: 'Médecine physique et de réadaptation' },
  { id: 32, name: 'Médecine vasculaire' },
  { id: 33, name: 'Néphrologie' },
  { id: 34, name: 'Neurochirurgie' },
  { id: 35, name: 'Neurologie' },
  { id: 36, name: 'Oncologie' },
  { id: 37, name: 'Ophtalmologie' },
  { id: 38, name: 'Oto-rhino-laryngologie et chirurgie cervico-faciale' },
  { id: 39, name: 'Pédiatrie' },
  { id: 40, name: 'Pneumologie' },
  { id: 41, name: 'Psychiatrie' },
  { id: 42, name: "Psychiatrie de l'enfant et de l'adolescent" },
  { id: 43, name: 'Radiologie et imagerie médicale' },
  { id: 44, name: 'Radiothérapie' },
  { id: 45, name: 'Rhumatologie' },
  { id: 46, name: 'Santé publique' },
  { id: 47, name: 'Stomatologie' },
  { id: 48, name: 'Urologie' },
  { id: 49, name: 'Angiologie' },
  { id: 50, name: 'Médecine du sport' },
  { id: 51, name: 'Addictologie' },
  { id: 52, name: 'Soins palliatifs' },
];
