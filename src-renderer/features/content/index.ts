/**
 * The content feature's public face: the adverts-and-articles editor, its list blocks and previews, which the
 * advert, article and proof screens compose. Other features import only from here, never the files behind it.
 */
export { ContentEditor } from './ContentEditor';
export { createEditorAtoms } from './editor-atoms';
export { DeeplinkDialog } from './DeeplinkDialog';
export { contentColumns, COUNTRY_OPTIONS, ListSearch, listSorting, PROFESSION_OPTIONS, SPECIALTY_OPTIONS, yesNo } from './list-blocks';
export { HoverPreview } from './preview/HoverPreview';
export { createRowActionAtoms } from './row-actions';
export type { ContentApi, ContentItem } from './types';
export { AdBlockerAlert } from './widgets';
