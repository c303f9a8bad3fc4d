/**
 * The key a token store keeps `key` under: `key` itself, or, when it is a URL
 * with user info (`https://user:pass@host/mcp`), that URL without it.
 *
 * User info in a server's URL is a password for that server (rxmcp's own
 * requests on Node send it as Basic credentials), and a token store keeps
 * its keys in the clear: in a file's name and body, in the browser's
 * storage. The session hands stores keys without it already (see
 * `canonicalUri`); the stores strip it again for a caller who uses them
 * directly. The URL with and without the user info then share one entry:
 * the tokens are the person's who signed in through the browser, not the
 * URL's user's, and keying apart by anything drawn from the password (even a
 * hash of it) would keep a value to guess it from offline. Two identities on
 * one server keep apart with two stores (another directory or namespace).
 */
export function tokenStoreKey(key: string): string {
  // Cheap test first: no '@', no user info.
  if (!key.includes('@')) return key;
  let url: URL;
  try {
    url = new URL(key);
  } catch {
    return key;
  }
  if (url.username === '' && url.password === '') return key;
  url.username = '';
  url.password = '';
  return url.href;
}
