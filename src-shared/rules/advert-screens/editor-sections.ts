import { audienceSearchers, audienceWriters, contentAdminFieldWriters, contentWriters } from '../../access-rules';
import { isAllowed } from '../../roles';
import { openInChoices } from '../advert-model';

/** Sections of the advert and article editors, their fields, the editor's id and who may do what (adverts-articles.md §2.2, §2.5, §6). */

export type EditorSection = 'general' | 'audiences' | 'visuals' | 'tracking' | 'cta' | 'quiz' | 'sharing' | 'scheduling' | 'funnels';

/** Which accordion sections an advert of `type` shows to a user holding `roles` (§2.2). */
export function advertSections(type: string | null | undefined, roles: readonly string[]): EditorSection[] {
  const isAdmin = isAllowed(contentAdminFieldWriters, roles);
  const sections: EditorSection[] = ['general', 'audiences'];
  if (type !== 'story' && type !== 'banner') sections.push('visuals');
  if (isAdmin && type !== 'story') sections.push('tracking');
  if (type === 'story') sections.push('cta');
  if (type === 'quiz') sections.push('quiz');
  if (!['story', 'banner', 'tool', 'notification'].includes(type ?? '')) sections.push('sharing');
  if (type !== 'tool') sections.push('scheduling', 'funnels');
  return sections;
}

/**
 * The fields of each section of the advert editor that hold a value of the advert, as the editor names them (its
 * `data-field`, also the name a failed save highlights): the inputs of a saved advert of `type` for a user who may
 * write (uploads come with the first save). The publication rule's required fields are checked against this map,
 * and the browser test checks the editor against it, type by type. Screens' own fields (screen.*) are not listed.
 */
export function advertSectionFields(section: EditorSection, type: string | null | undefined, roles: readonly string[]): string[] {
  switch (section) {
    case 'general':
      return [
        'name',
        'type',
        'weight',
        'maxViews',
        ...(openInChoices(type).length > 0 ? ['openIn'] : []),
        'isFree',
        ...(type === 'story' ? ['story.position'] : []),
        'promoteInSearch',
        // For other types, the search fields come with 'Promouvoir dans la recherche'.
        ...(type === 'search' ? ['search.position', 'search.tabs'] : []),
        ...(type === 'tool' ? ['sonataId'] : []),
        // A banner hides 'Visuels et descriptifs': its image is uploaded here.
        ...(type === 'banner' ? ['bannerLink', 'images'] : []),
      ];
    case 'audiences':
      return ['_$audiences'];
    case 'visuals':
      return [
        'prefillUrl',
        'logo',
        'images',
        ...(type === 'video' ? ['video'] : []),
        'source',
        'author',
        'title',
        'subtitle',
        'buttonLabel',
        'tagline',
        'description',
        'footNote',
        'showReadMore',
      ];
    case 'tracking':
      return ['pixelTrackingUrl'];
    case 'cta':
      // The story's own logo: its upload (§7), the one logo a story's editor sets.
      return [
        'story.title',
        'story.subtitle',
        'callToAction.text',
        'callToAction.textColor',
        'callToAction.backgroundColor',
        'story.forward',
        'story.logo',
        'story.screens',
      ];
    case 'quiz':
      return [
        'quiz.allowMultipleAnswers',
        'quiz.isSurvey',
        'quiz.link',
        'quiz.answerButtonLabel',
        'quiz.validateButtonLabel',
        ...(isAllowed(contentAdminFieldWriters, roles) ? ['quiz.votersCountDefault'] : []),
      ];
    case 'sharing':
      return ['sharing.enableLikes', 'sharing.enableBookmarking', 'sharing.enableSharing', 'sharing.sharingLink', 'sharing.sharingMessage'];
    case 'scheduling':
      return ['autoStartAt', 'autoStopAt', 'autoPublishOptions.activated', 'autoPublishOptions.emails'];
    case 'funnels':
      return [];
  }
}

/** Every field the advert editor shows for `type` to `roles` (§2.2): the fields of the sections it shows. */
export const advertEditorFields = (type: string | null | undefined, roles: readonly string[]): string[] =>
  advertSections(type, roles).flatMap((section) => advertSectionFields(section, type, roles));

/** The article editor's sections (§2.5): no Tracking nor funnels. */
export function articleSections(type: string | null | undefined): EditorSection[] {
  const sections: EditorSection[] = ['general', 'audiences'];
  if (type !== 'story') sections.push('visuals');
  if (type === 'story') sections.push('cta');
  if (type === 'quiz') sections.push('quiz');
  if (type !== 'story' && type !== 'notification') sections.push('sharing');
  sections.push('scheduling');
  return sections;
}

/** 'Convertir en post contenu' is offered for post, video, quiz and story (§2.2, §4). */
export const CONVERTIBLE_TYPES = ['post', 'video', 'quiz', 'story'] as const;
export const isConvertible = (type: string | null | undefined) => (CONVERTIBLE_TYPES as readonly string[]).includes(type ?? '');

/** The editor's id (§2.2): 'new', 'project-{name}' (a new advert named after a project target), or an existing id. */
export type EditorId = { kind: 'new'; name: string } | { kind: 'existing'; id: number } | { kind: 'invalid' };
export const PROJECT_PREFIX = 'project-';

export function parseEditorId(raw: string | undefined): EditorId {
  if (raw === undefined) return { kind: 'invalid' };
  if (raw === 'new') return { kind: 'new', name: '' };
  if (raw.startsWith(PROJECT_PREFIX)) return { kind: 'new', name: raw.slice(PROJECT_PREFIX.length) };
  return /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? { kind: 'existing', id: Number(raw) } : { kind: 'invalid' };
}

/** Roles that see the audience search box of the editor (§2.2, §6): those audiences.search lets in. */
export const canSearchAudiences = (roles: readonly string[]) => isAllowed(audienceSearchers, roles);
/** Roles for whom the list's audience tag is a link to /audiences/{id} (§2.1, §6): those the audience editor opens for. */
export const canOpenAudience = (roles: readonly string[]) => isAllowed(audienceWriters, roles);
/** SALES without ADMIN only reads adverts (§6): the content writes refuse them. */
export const isAdvertReadOnly = (roles: readonly string[]) => !isAllowed(contentWriters, roles);
