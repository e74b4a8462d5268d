import type { ReactNode } from 'react';

/** The address of a page of an institution's QR entry: `/r/<entrytoken>` and the page's path under it. */
export function entryHref(entrytoken: string, page = ''): string {
  return `/r/${encodeURIComponent(entrytoken)}${page ? `/${page}` : ''}`;
}

/**
 * A link between the pages of an institution's QR entry (the offers under the registration, "back"
 * on the articles, music and goods pages): underlined text on a line of its own, centred, with
 * padding that makes it a target big enough for a thumb.
 */
export function PageLink({ href, testId, children }: { href: string; testId?: string; children: ReactNode }) {
  return (
    <p className="r-center">
      <a className="r-link" href={href} data-testid={testId}>
        {children}
      </a>
    </p>
  );
}
