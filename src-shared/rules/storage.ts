/**
 * Storage keys and upload formats (adverts-articles.md §5, audiences-projects-tools.md §4, §9; docs/storage.md).
 * Pure: the server checks every key with it, the renderer uses it to show and filter.
 */

/** Where the storage browser lives (spec: uploads go under assets/clients). */
export const DOCUMENTS_ROOT = 'assets/clients';
/** An empty file that makes a folder exist (object storage has no folders, spec §4). */
export const FOLDER_MARKER = '.keep';
/** Library media (spec §5, §9). */
export const LIBRARY_MAX_BYTES = 10 * 1024 * 1024;
/** Documents of the storage browser: bigger than media (videos, decks), still bounded. */
export const DOCUMENT_MAX_BYTES = 512 * 1024 * 1024;
export const MAX_KEY_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;

/** Media of advert and library uploads, and of the library of each advert or article. */
export const ADVERTS_ROOT = 'assets/adverts';
export const LIBRARY_ROOT = 'assets/library';
export const LIBRARY_LABELS = ['advert', 'article'] as const;

/** Spec §5's upload list, as the spec names it (extensions and MIME subtypes). */
export const MEDIA_FORMATS = ['png', 'jpg', 'jpeg', 'gif', 'mp4', 'svg', 'ico', 'icon', 'x-icon', 'svg+xml', 'vnd.microsoft.icon'] as const;
export const IMAGE_FORMATS = ['jpg', 'jpeg', 'png', 'gif'] as const;
export const VIDEO_FORMATS = ['mp4', 'webm', 'ogg'] as const;
/** The storage browser takes documents as well (spec §9: previews and icons). */
export const DOCUMENT_FORMATS = [
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'tiff',
  'tif',
  'webp',
  'ico',
  'pdf',
  'mp4',
  'webm',
  'ogg',
  'mp3',
  'ppt',
  'pptx',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'zip',
  'txt',
  'csv',
  'html',
  'json',
  FOLDER_MARKER.slice(1),
] as const;

/** Advert media (spec §7 Uploads): logo and cover take the spec's image list, video the video formats. */
export const ADVERT_ATTACHMENT_KINDS = ['logo', 'cover', 'video'] as const;
export type AdvertAttachmentKind = (typeof ADVERT_ATTACHMENT_KINDS)[number];
export const MEDIA_MAX_BYTES = LIBRARY_MAX_BYTES;
export const ADVERT_IMAGE_FORMATS = MEDIA_FORMATS.filter((format) => format !== 'mp4');
export const ADVERT_ATTACHMENT_FORMATS_BY_KIND: Readonly<Record<AdvertAttachmentKind, readonly string[]>> = {
  logo: ADVERT_IMAGE_FORMATS,
  cover: ADVERT_IMAGE_FORMATS,
  video: VIDEO_FORMATS,
};
/** Every format one of the kinds takes: the operation's list (dialog filter, first check). */
export const ADVERT_ATTACHMENT_FORMATS = [...new Set([...MEDIA_FORMATS, ...VIDEO_FORMATS])] as readonly string[];
/** Story uploads take the shorter list of spec §5: images; a screen's illustration may be a video too. */
export const STORY_IMAGE_FORMATS = IMAGE_FORMATS;
export const STORY_ILLUSTRATION_FORMATS = [...IMAGE_FORMATS, ...VIDEO_FORMATS] as const;

/** The formats an advert attachment of `kind` takes. */
export function attachmentFormats(kind: AdvertAttachmentKind): readonly string[] {
  return ADVERT_ATTACHMENT_FORMATS_BY_KIND[kind];
}

/**
 * The storage key of an advert's media: built from the advert id, the kind and a random part only, with the
 * (already allowed) extension; nothing the user typed.
 */
export function advertMediaKey(advertId: number, place: string, random: string, extension: string): string {
  return `${ADVERTS_ROOT}/${advertId}/${place}-${random}.${extension}`;
}

/** Spec §9: files shown in the preview pane, and those with their own icon. */
export const PREVIEWABLE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'tiff', 'pdf'] as const;
export const ICON_EXTENSIONS = ['html', 'mp4', 'ppt', 'pptx', 'txt'] as const;

export type KeyCheck = { ok: true; key: string } | { ok: false; reason: 'empty' | 'absolute' | 'traversal' | 'control' | 'length' | 'segment' };

/**
 * Checks a storage key (or folder) made of user input: relative, '/'-separated, no '.' or '..' segment, no
 * backslash, no control character (NUL included), no empty segment. Answers the key unchanged when it is safe;
 * nothing is "cleaned", so a bad key is refused rather than turned into another one.
 */
export function checkKey(key: string, options: { allowEmpty?: boolean } = {}): KeyCheck {
  if (key === '') return options.allowEmpty ? { ok: true, key } : { ok: false, reason: 'empty' };
  if (key.length > MAX_KEY_LENGTH) return { ok: false, reason: 'length' };
  if (/[\u0000-\u001f\u007f]/.test(key)) return { ok: false, reason: 'control' };
  if (key.startsWith('/') || key.includes('\\') || /^[A-Za-z]:/.test(key) || key.startsWith('~')) return { ok: false, reason: 'absolute' };
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment === '..' || segment === '.') return { ok: false, reason: 'traversal' };
    if (segment === '' || segment.length > MAX_SEGMENT_LENGTH || segment !== segment.trim()) return { ok: false, reason: 'segment' };
  }
  return { ok: true, key };
}

/** A folder key without its trailing '/', checked; '' is the root. */
export function checkFolder(folder: string): KeyCheck {
  return checkKey(folder.replace(/\/+$/, ''), { allowEmpty: true });
}

/** Whether `key` is `folder` itself or inside it. */
export function isWithin(key: string, folder: string): boolean {
  return folder === '' || key === folder || key.startsWith(`${folder}/`);
}

/** A file name as the user's system gave it, made into one key segment (the folder part and odd characters go). */
export function fileNameSegment(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(-MAX_SEGMENT_LENGTH);
  return cleaned === '.' || cleaned === '..' ? '' : cleaned;
}

export function extensionOf(name: string): string {
  const base = name.split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? (base.startsWith('.') ? base.slice(1).toLowerCase() : '') : base.slice(dot + 1).toLowerCase();
}

export function isPreviewable(name: string): boolean {
  return (PREVIEWABLE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

export function isVideoUrl(url: string): boolean {
  return (VIDEO_FORMATS as readonly string[]).includes(extensionOf(url.split('?')[0]));
}

/**
 * What the file's first bytes may be for a given extension: the families a sniffer reports (file-type's
 * extensions), or 'text' for formats without a signature (checked for not being binary instead).
 */
export const SIGNATURES: Record<string, readonly string[] | 'text'> = {
  png: ['png', 'apng'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  webp: ['webp'],
  tiff: ['tif'],
  tif: ['tif'],
  ico: ['ico', 'cur'],
  icon: ['ico', 'cur'],
  'x-icon': ['ico', 'cur'],
  'vnd.microsoft.icon': ['ico', 'cur'],
  pdf: ['pdf', 'ai'],
  mp4: ['mp4', 'm4v', 'mov', 'm4a', 'f4v'],
  webm: ['webm', 'mkv'],
  ogg: ['ogg', 'ogv', 'oga', 'ogx', 'opus', 'spx'],
  mp3: ['mp3'],
  ppt: ['cfb', 'ppt'],
  doc: ['cfb', 'doc'],
  xls: ['cfb', 'xls'],
  pptx: ['pptx', 'zip'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  zip: ['zip'],
  svg: 'text',
  'svg+xml': 'text',
  txt: 'text',
  csv: 'text',
  html: 'text',
  json: 'text',
  keep: 'text',
};

/**
 * Whether the bytes' sniffed type (file-type's extension, undefined when it knows none) fits the name's extension.
 * A PNG renamed .mp4 does not; a text format must not be a known binary type, and an SVG must look like one.
 */
export function contentMatches(extension: string, sniffed: string | undefined, head: Uint8Array): boolean {
  const expected = SIGNATURES[extension];
  if (!expected) return false;
  if (expected === 'text') {
    if (sniffed && sniffed !== 'xml' && !(extension.startsWith('svg') && sniffed === 'svg')) return false;
    if (head.includes(0)) return false;
    if (extension === 'svg' || extension === 'svg+xml') return /<svg[\s>]/i.test(new TextDecoder().decode(head));
    return true;
  }
  return sniffed !== undefined && expected.includes(sniffed);
}
