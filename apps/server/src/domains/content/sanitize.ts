import sanitizeHtml from 'sanitize-html';

/** The only pictures an article may show: files of the file store, by their served path. */
const FILE_SRC = /^\/files\/([0-9a-f]{32}\.[a-z0-9]{2,5})$/;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'hr',
    'code',
    'pre',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'title'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // script, style, textarea … are dropped with their text.
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
    b: 'strong',
    i: 'em',
  },
  exclusiveFilter: (frame) =>
    (frame.tag === 'img' && !FILE_SRC.test(frame.attribs.src ?? '')) || (frame.tag === 'a' && !frame.attribs.href && !frame.text.trim()),
};

/**
 * An article body through the allow-list: only text structure, links (http, https, mailto; opened
 * in a new tab without referrer) and pictures served from this file store. No script or style,
 * no event handler or style attribute, no javascript:/data: URL survives. Answers the clean HTML
 * and the storage keys of the pictures it shows.
 */
export function sanitizeArticle(html: string): { html: string; keys: string[] } {
  const clean = sanitizeHtml(html, OPTIONS).trim();
  const keys = [...clean.matchAll(/<img [^>]*src="\/files\/([0-9a-f]{32}\.[a-z0-9]{2,5})"/g)].map((m) => m[1]!);
  return { html: clean, keys: [...new Set(keys)] };
}
