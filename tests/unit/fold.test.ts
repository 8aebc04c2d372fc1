import { describe, expect, it } from 'vitest';
import { boldParts } from '@shared/rules/audience-editor';
import { foldForSearch, SQL_FOLD_ACCENTED, SQL_FOLD_UNACCENTED, stripAccents } from '@shared/rules/fold';

describe('foldForSearch (src-shared/rules/fold.ts)', () => {
  it('drops accents, spells ligatures out and lowers the case', () => {
    expect(foldForSearch('Médecine Générale')).toBe('medecine generale');
    expect(foldForSearch('CŒUR sœur')).toBe('coeur soeur');
    expect(foldForSearch('Æsculape æ')).toBe('aesculape ae');
    expect(foldForSearch('e\u0301')).toBe('e');
    expect(foldForSearch("L'HAŸ-LES-ROSES 100 %")).toBe("l'hay-les-roses 100 %");
  });

  it('stripAccents keeps the case', () => {
    expect(stripAccents('Œuvre Éditée Æ')).toBe('OEuvre Editee AE');
  });

  it('gives the letter the SQL table gives for each accented letter', () => {
    expect(SQL_FOLD_ACCENTED.length).toBe(SQL_FOLD_UNACCENTED.length);
    for (let i = 0; i < SQL_FOLD_ACCENTED.length; i += 1) {
      expect(foldForSearch(SQL_FOLD_ACCENTED[i]), SQL_FOLD_ACCENTED[i]).toBe(SQL_FOLD_UNACCENTED[i].toLowerCase());
    }
  });
});

describe('boldParts folds as the search does', () => {
  it('bolds a ligature matched by its spelled-out letters, and by itself', () => {
    expect(boldParts('Sœur Cœur', 'coeur')).toEqual([
      { text: 'Sœur ', bold: false },
      { text: 'Cœur', bold: true },
    ]);
    expect(boldParts('Cœur', 'cœu')).toEqual([
      { text: 'Cœu', bold: true },
      { text: 'r', bold: false },
    ]);
  });

  it('keeps a decomposed accent with its letter', () => {
    expect(boldParts('Ge\u0301ne\u0301rale', 'gene')).toEqual([
      { text: 'Ge\u0301ne\u0301', bold: true },
      { text: 'rale', bold: false },
    ]);
  });
});
