import { ContentEditor } from '../content';
import { advertApi } from './api';
import { advertEditor } from './atoms';

/** /adverts/edit/{id} (adverts-articles.md §2.2): new, project-{name} or an existing advert. */
export default function AdvertEditPage() {
  return <ContentEditor atoms={advertEditor} makeApi={advertApi} kind="advert" />;
}
