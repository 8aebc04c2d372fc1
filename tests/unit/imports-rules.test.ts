import { describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { detectSeparator, guessField, planMapping, readImportRow, readWholeNumber, type ImportPlan } from '@shared/rules/imports';

const headers = ['ID', 'Mail', 'Profession', 'Spécialité', 'Pays', 'Rôles', 'Note'];

describe('mapping', () => {
  it('plans the mapped columns by position and leaves out the others', () => {
    const planned = planMapping(headers, [
      { header: 'Mail', field: 'email' },
      { header: 'ID', field: 'externalId' },
      { header: 'Note', field: null },
    ]);
    expect(planned).toEqual({
      ok: true,
      plan: [
        { index: 1, header: 'Mail', field: 'email' },
        { index: 0, header: 'ID', field: 'externalId' },
      ],
    });
  });

  it('refuses an unknown header, a field chosen twice, and a mapping with neither externalId nor email', () => {
    expect(planMapping(headers, [{ header: 'Absent', field: 'email' }])).toEqual({ ok: false, message: M.unknownHeader('Absent') });
    expect(
      planMapping(headers, [
        { header: 'ID', field: 'email' },
        { header: 'Mail', field: 'email' },
      ]),
    ).toEqual({ ok: false, message: M.fieldTwice('email') });
    expect(planMapping(headers, [{ header: 'Profession', field: 'profession' }])).toEqual({ ok: false, message: M.keyRequired });
  });

  it('guesses the field of usual headers', () => {
    expect(['externalId', 'E-mail', 'Nom', 'Spécialité', 'Code postal', 'Pays', 'Commentaire'].map(guessField)).toEqual([
      'externalId',
      'email',
      'name',
      'specialty',
      'zipcode',
      'country',
      null,
    ]);
    // The headers of the demo list (a congress's): a newcomer's first import maps its key without help.
    expect(['Identifiant', 'Adresse e-mail', 'Courriel'].map(guessField)).toEqual(['externalId', 'email', 'email']);
  });
});

describe('rows', () => {
  const plan: ImportPlan = [
    { index: 0, header: 'ID', field: 'externalId' },
    { index: 1, header: 'Mail', field: 'email' },
    { index: 2, header: 'Profession', field: 'profession' },
    { index: 3, header: 'Spécialité', field: 'specialty' },
    { index: 4, header: 'Pays', field: 'country' },
    { index: 5, header: 'Rôles', field: 'roles' },
  ];

  it('reads professions and specialties by name (case and accents ignored) or by number, French or plain', () => {
    expect(readImportRow(['u-1', ' a@b.fr ', 'pharmacien', 'CARDIOLOGIE ET MALADIES VASCULAIRES', 'Espagne', 'ROLE_A|ROLE_B'], plan, 2)).toEqual({
      user: { externalId: 'u-1', email: 'a@b.fr', professionId: 4, specialtyId: 6, countryId: 722, roles: ['ROLE_A', 'ROLE_B'] },
    });
    expect(readImportRow(['u-2', '', '4,0', ' 6 ', '72', ''], plan, 3)).toEqual({
      user: { externalId: 'u-2', professionId: 4, specialtyId: 6, countryId: 72 },
    });
  });

  it('names every wrong cell by line and column', () => {
    expect(readImportRow(['u-3', 'pas-un-mail', 'Astronaute', '99999', 'Groland', ''], plan, 7)).toEqual({
      errors: [
        { line: 7, column: 'Mail', message: M.invalidEmail },
        { line: 7, column: 'Profession', message: M.unknownProfession },
        { line: 7, column: 'Spécialité', message: M.unknownSpecialty },
        { line: 7, column: 'Pays', message: M.unknownCountry },
      ],
    });
  });

  it('reads postal codes of the areas served, and refuses what is none', () => {
    const zipPlan: ImportPlan = [
      { index: 0, header: 'ID', field: 'externalId' },
      { index: 1, header: 'CP', field: 'zipcode' },
    ];
    for (const zipcode of ['75011', '1000', '28013', 'SW1A 1AA', '2A-004'])
      expect(readImportRow(['u-9', zipcode], zipPlan, 2), zipcode).toMatchObject({ user: { zipcode } });
    for (const zipcode of ['ABCDE', '-1', '75011-', 'x'])
      expect(readImportRow(['u-9', zipcode], zipPlan, 5), zipcode).toEqual({ errors: [{ line: 5, column: 'CP', message: M.invalidZipcode }] });
  });

  it('needs an externalId or an e-mail on each row', () => {
    expect(readImportRow(['', '', 'Pharmacien', '', '', ''], plan, 4)).toEqual({ errors: [{ line: 4, column: 'ID', message: M.keyMissing }] });
  });

  it('reads whole numbers written plainly or the French way, nothing else', () => {
    expect(['12', '1 234', '1\u202f234', '12,0', '12.00'].map(readWholeNumber)).toEqual([12, 1234, 1234, 12, 12]);
    expect(['12,5', '-3', '1e3', 'douze', ''].map(readWholeNumber)).toEqual([null, null, null, null, null]);
  });

  it('detects ; or , from the header line, outside quotes', () => {
    expect(detectSeparator('a;b;c')).toBe(';');
    expect(detectSeparator('a,b,c')).toBe(',');
    expect(detectSeparator('"x;y",b,c')).toBe(',');
  });
});
