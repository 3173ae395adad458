/**
 * Text as a browser shows it: tags dropped, the five entities `escape-html` writes decoded,
 * whitespace collapsed. For asserting on what a page says without depending on its markup.
 */
export function pageText(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
