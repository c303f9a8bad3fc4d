/**
 * A URL as a message may show it: without user info, and with its query
 * string and fragment cut to `?…` and `#…`, since those are where keys and
 * tokens tend to be (`https://user:token@host`, `?api_key=`). Text that does
 * not parse as a URL is returned as it is.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username === '' && parsed.password === '' && parsed.search === '' && parsed.hash === '') return url;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search ? '?…' : ''}${parsed.hash ? '#…' : ''}`;
}

/** `text` with every occurrence of `url` written as `shownUrl(url)`: a fetch error's own message quotes the URL whole. */
export function withShownUrl(text: string, url: string): string {
  const shown = shownUrl(url);
  return shown === url || url === '' ? text : text.split(url).join(shown);
}
