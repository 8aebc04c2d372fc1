import { boldParts } from '@shared/rules/audience-editor';

/** A search result's text with the term bolded (spec §5: only for terms of 3 or more characters). */
export function Highlighted(props: { text: string; term: string }) {
  return (
    <>
      {boldParts(props.text, props.term).map((part, index) =>
        part.bold ? <strong key={index}>{part.text}</strong> : <span key={index}>{part.text}</span>,
      )}
    </>
  );
}
