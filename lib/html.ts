/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

/**
 * Escapes text for XML element content and attributes (the feed, the sitemap): as escapeHtml, after dropping what
 * XML 1.0 cannot hold at all, even escaped (control characters but tab, newline and carriage return; U+FFFE, U+FFFF).
 */
export function escapeXml(text: string): string {
  return escapeHtml(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ''));
}
