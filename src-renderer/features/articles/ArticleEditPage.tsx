import { ContentEditor } from '../content';
import { articleApi } from './api';
import { articleEditor } from './atoms';

/** /articles/edit/{id} and /articles/edit/new (adverts-articles.md §2.5). */
export default function ArticleEditPage() {
  return <ContentEditor atoms={articleEditor} makeApi={articleApi} kind="article" />;
}
