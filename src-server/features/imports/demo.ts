import { Readable } from 'node:stream';
import { CSV_ROOT } from '@shared/rules/imports';
import type { StorageAdapter } from '../../storage/adapter';

const NAMES = ['Martin', 'Bernard', 'Thomas', 'Petit', 'Robert', 'Richard', 'Durand', 'Dubois', 'Moreau', 'Laurent', 'Simon', 'Michel'];
const PROFESSIONS = ['Pharmacien', 'Médecin', 'Infirmier', '9', 'Sage-femme'];

/**
 * A CSV list in the demo's CSV area (a French Excel export: ';', Windows-1252), so /imports has a file to open,
 * map and import: 120 pharmacists and others, new to the population.
 */
export async function seedImportsDemo(storage: StorageAdapter): Promise<boolean> {
  const key = `${CSV_ROOT}/exemple-liste-congres.csv`;
  if (await storage.head(key)) return false;
  const lines = ['Identifiant;Adresse e-mail;Nom;Profession;Code postal;Langue;Remarque'];
  for (let n = 1; n <= 120; n += 1) {
    const name = NAMES[n % NAMES.length];
    lines.push(
      `congres-${n};${name.toLowerCase()}.${n}@exemple-congres.fr;Dr ${name} ${n};${PROFESSIONS[n % PROFESSIONS.length]};${69000 + n};french;Stand ${n % 7}`,
    );
  }
  await storage.put(key, Readable.from([Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1')]), 'text/csv');
  return true;
}
