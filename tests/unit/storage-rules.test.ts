import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contract, type Operation } from '@shared/contract';
import { uploadOperationIds } from '@shared/ipc';
import { formatNotAllowed, tooLargeFor } from '@shared/messages/storage';
import { UPLOAD_FORMATS } from '@shared/features';
import {
  LIBRARY_MAX_BYTES,
  checkKey,
  contentMatches,
  extensionOf,
  fileNameSegment,
  isPreviewable,
  isVideoUrl,
  isWithin,
} from '@shared/rules/storage';

describe('storage keys', () => {
  it('keeps safe relative keys unchanged', () => {
    for (const key of ['assets/clients/a.png', 'assets/clients/Labo X/Présentation 2024.pptx', 'a', 'assets/clients/sub/.keep'])
      expect(checkKey(key)).toEqual({ ok: true, key });
  });

  it('refuses traversal, absolute paths, control characters and empty segments, naming why', () => {
    const cases: [string, string][] = [
      ['../x', 'traversal'],
      ['a/../../x', 'traversal'],
      ['a/./x', 'traversal'],
      ['/etc/passwd', 'absolute'],
      ['C:/Windows', 'absolute'],
      ['a\\..\\b', 'absolute'],
      ['~/x', 'absolute'],
      ['a\u0000b', 'control'],
      ['a\nb', 'control'],
      ['a\u007fb', 'control'],
      ['a//b', 'segment'],
      ['a/', 'segment'],
      [' a', 'segment'],
      ['', 'empty'],
      ['x'.repeat(2000), 'length'],
    ];
    for (const [key, reason] of cases) expect(checkKey(key), JSON.stringify(key)).toEqual({ ok: false, reason });
  });

  it('never accepts a key that resolves outside its root, whatever the input', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '..', '.', '', '/', '\\', '\u0000', 'b c', '%2e%2e'), { maxLength: 8 }), (parts) => {
        const key = parts.join('/');
        const checked = checkKey(key);
        if (!checked.ok) return;
        const stack: string[] = [];
        for (const segment of key.split('/')) {
          if (segment === '..') stack.pop();
          else stack.push(segment);
        }
        expect(key.split('/')).not.toContain('..');
        expect(key.startsWith('/')).toBe(false);
        expect(stack.length).toBe(key.split('/').length);
      }),
    );
  });

  it('reads file names, extensions and folders', () => {
    expect(fileNameSegment('C:\\Users\\me\\logo.PNG')).toBe('logo.PNG');
    expect(fileNameSegment('/home/me/../..')).toBe('');
    expect(fileNameSegment('a\u0000b.png')).toBe('ab.png');
    expect(extensionOf('logo.PNG')).toBe('png');
    expect(extensionOf('.keep')).toBe('keep');
    expect(extensionOf('README')).toBe('');
    expect(isWithin('assets/clients/a', 'assets/clients')).toBe(true);
    expect(isWithin('assets/clientsX/a', 'assets/clients')).toBe(false);
    expect(['a.png', 'b.JPG', 'c.jpeg', 'd.tiff', 'e.pdf'].every(isPreviewable)).toBe(true);
    expect(['a.gif', 'b.html', 'c.mp4', 'd.pptx'].some(isPreviewable)).toBe(false);
    expect(isVideoUrl('/cdn/a/b.mp4?d=1')).toBe(true);
    expect(isVideoUrl('/cdn/a/b.png?d=1')).toBe(false);
  });
});

describe('content checks', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  it('matches the bytes to the extension', () => {
    expect(contentMatches('png', 'png', png)).toBe(true);
    expect(contentMatches('mp4', 'png', png)).toBe(false);
    expect(contentMatches('jpeg', 'jpg', png)).toBe(true);
    expect(contentMatches('pptx', 'zip', png)).toBe(true);
    expect(contentMatches('txt', undefined, new TextEncoder().encode('bonjour'))).toBe(true);
    expect(contentMatches('txt', 'png', png)).toBe(false);
    expect(contentMatches('txt', undefined, new Uint8Array([65, 0, 66]))).toBe(false);
    expect(contentMatches('svg', undefined, new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="x">'))).toBe(true);
    expect(contentMatches('svg', 'xml', new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="x">'))).toBe(true);
    expect(contentMatches('svg', undefined, new TextEncoder().encode('<html>'))).toBe(false);
    expect(contentMatches('exe', undefined, png)).toBe(false);
  });

  it('words the refusals as the spec does', () => {
    expect(formatNotAllowed(['png', 'jpg'])).toBe('Format non autorisé: png, jpg, seulement.');
    expect(tooLargeFor(LIBRARY_MAX_BYTES)).toBe('Fichier trop volumineux. Taille maximale 10Mo');
  });

  it('lists for the page the same formats as the contract, for every upload operation', () => {
    expect(uploadOperationIds.length).toBeGreaterThan(0);
    for (const id of uploadOperationIds) expect(UPLOAD_FORMATS[id], id).toEqual((contract[id] as Operation).multipart!.formats);
    expect(Object.keys(UPLOAD_FORMATS).sort()).toEqual([...uploadOperationIds].sort());
  });
});
