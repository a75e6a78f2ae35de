import { linkify } from '@/lib/format/linkify';

/**
 * A comment's text: React text nodes (escaped) with http(s) URLs as links
 * that search engines discount (ugc, nofollow) and that cannot reach back
 * into this page (noopener). Never HTML. Line breaks show (white-space:
 * pre-line in community.css).
 */
export function CommentText({ text, className = 'comment-body' }: { text: string; className?: string }) {
  return (
    <p className={className}>
      {linkify(text).map((part, index) =>
        part.type === 'link' ? (
          <a
            key={index}
            href={part.href}
            rel="ugc nofollow noopener"
            target="_blank"
            title={part.text.length > part.display.length ? part.text : undefined}
          >
            {part.display}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}
