import { memo } from 'react';
import type { PreviewType, QuizStep } from '@shared/rules/preview';
import type { ContentItem, ContentKind } from '../types';
import { BannerPreview } from './BannerPreview';
import { NotificationPreview } from './NotificationPreview';
import { PostPreview } from './PostPreview';
import { QuizPreview } from './QuizPreview';
import { SearchPreview } from './SearchPreview';
import { StoryPreview } from './StoryPreview';
import { ToolPreview } from './ToolPreview';
import { VideoPreview } from './VideoPreview';

export interface ItemPreviewProps {
  item: ContentItem;
  kind: ContentKind;
  type: PreviewType;
  expanded: boolean;
  quizStep: QuizStep;
  onQuizStep: (step: QuizStep) => void;
  screenIndex: number;
  onScreen: (index: number) => void;
}

/** The preview of one type, at full size (the pane scales it): a pure function of the item and the view state. */
export const ItemPreview = memo(function ItemPreview(props: ItemPreviewProps) {
  const base = { item: props.item, kind: props.kind, expanded: props.expanded };
  switch (props.type) {
    case 'post':
      return <PostPreview {...base} />;
    case 'video':
      return <VideoPreview {...base} />;
    case 'quiz':
      return <QuizPreview {...base} step={props.quizStep} onStep={props.onQuizStep} />;
    case 'story':
      return <StoryPreview {...base} screenIndex={props.screenIndex} onScreen={props.onScreen} />;
    case 'search':
      return <SearchPreview {...base} />;
    case 'notification':
      return <NotificationPreview {...base} />;
    case 'tool':
      return <ToolPreview {...base} />;
    case 'banner':
      return <BannerPreview {...base} />;
  }
});
