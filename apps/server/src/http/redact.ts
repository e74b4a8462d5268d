/**
 * Logs never hold a credential (DESIGN §6, issue 27 item 12). Several URLs are capabilities by
 * themselves: `/a/<assessment code>` opens that person's assessment and shows their name,
 * `/r/<entry token>` an institution's QR entry, `/t/<task code>` a group task's sign-in,
 * `/files/<key>` a stored file, and the query of a signed upload target (`sig`, or an object store's
 * `X-Amz-Signature` and `X-Amz-Credential`) or of the cashier's return (`order`) authorises a request.
 * Each is masked as `*`; the shape of the URL stays readable.
 */

/**
 * The path segment after these prefixes is a credential (the rest of the path stays), wherever the
 * path appears: alone, after a host (a link in a message) or inside a longer path (masked too: a log
 * line losing a harmless segment costs nothing).
 */
const PATH_TOKEN = /\/(a|r|t)\/([^/?#\s"\\]+)/g;
/** A stored file's key (128 random bits); its extension stays. */
const FILE_KEY = /\/files\/(?!upload\/)([0-9a-f]{32})(?=[.?#\s"\\]|$)/g;
/** Query parameters whose value is a signature, token or credential. */
const QUERY_SECRET =
  /([?&](?:sig|signature|token|order|code|key|secret|password|pwd|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&#\s"\\]*/gi;

function redact(text: string): string {
  if (!text.includes('/') && !text.includes('=')) return text;
  return text.replace(PATH_TOKEN, '/$1/*').replace(FILE_KEY, '/files/*').replace(QUERY_SECRET, '$1*');
}

/** A request URL as it may be logged. */
export const redactUrl = (url: string) => redact(url);

/**
 * Every log line as it is written (pino's streamWrite hook): request lines, error lines with a
 * serialized request, messages that quote a URL. A line is JSON; `*` keeps it valid.
 */
export const redactLogLine = (line: string) => redact(line);
