// The sandbox's policies, built from a UI resource's `_meta.ui`. These
// functions run in two places: here (tests, and whoever wants to see the
// policy a view gets) and inside the sandbox proxy page, which embeds their
// source text. So each is self-contained: no imports, no helpers outside
// its own body, no syntax a bundler would lower into a shared helper.

/**
 * The Content-Security-Policy a view runs under, from its resource's
 * `_meta.ui.csp` (`connectDomains`, `resourceDomains`, `frameDomains`,
 * `baseUriDomains`). With no `csp`, the spec's restrictive default without
 * `'self'` as a source of resources (it would name the sandbox proxy's
 * origin); with one, exactly the declared origins and nothing more. Every declared origin
 * must be a bare `http(s)://` or `ws(s)://` origin (an optional `*.` label
 * wildcard and port allowed, no path, no spaces, quotes or `;`): anything
 * else is dropped, so a hostile declaration can only make the policy
 * stricter, never add a directive or a keyword such as `'unsafe-eval'`.
 * `object-src 'none'` and `form-action 'none'` are always added.
 */
export function buildCsp(csp: unknown): string {
  const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9]([a-z0-9-]{0,62})?(\.[a-z0-9]([a-z0-9-]{0,62})?)*(:[0-9]{1,5})?$/i;
  const MAX_ORIGINS = 64;
  const declared = typeof csp === 'object' && csp !== null && !Array.isArray(csp) ? (csp as Record<string, unknown>) : undefined;
  const origins = function (key: string): string[] {
    const list = declared !== undefined && Object.prototype.hasOwnProperty.call(declared, key) ? declared[key] : undefined;
    const kept: string[] = [];
    if (!Array.isArray(list)) return kept;
    for (let i = 0; i < list.length && kept.length < MAX_ORIGINS; i++) {
      const entry = list[i];
      if (typeof entry === 'string' && entry.length <= 260 && ORIGIN.test(entry) && kept.indexOf(entry) < 0) kept.push(entry);
    }
    return kept;
  };
  const listed = function (base: string, extra: string[], none: string): string {
    const parts = base === '' ? extra : [base].concat(extra);
    return parts.length === 0 ? none : parts.join(' ');
  };
  const resources = origins('resourceDomains');
  const connect = origins('connectDomains');
  const frames = origins('frameDomains');
  const bases = origins('baseUriDomains');
  // No 'self' where resources are fetched: in the view's srcdoc document it
  // names the sandbox proxy's origin, the host's own server (on this machine,
  // for a desktop host), which a view that declared nothing must not reach.
  const directives = [
    "default-src 'none'",
    'script-src ' + listed("'unsafe-inline'", resources, ''),
    'style-src ' + listed("'unsafe-inline'", resources, ''),
    'img-src ' + listed('data:', resources, ''),
    'media-src ' + listed('data:', resources, ''),
    'font-src ' + listed('', resources, "'none'"),
    'connect-src ' + listed('', connect, "'none'"),
    'frame-src ' + listed('', frames, "'none'"),
    'base-uri ' + listed('', bases, "'self'"),
    "object-src 'none'",
    "form-action 'none'",
  ];
  return directives.join('; ');
}

/**
 * The iframe `allow` attribute (Permissions Policy) for a resource's
 * `_meta.ui.permissions`: `camera`, `microphone`, `geolocation` and
 * `clipboard-write` for the four keys the spec names; every other key is
 * ignored. Empty when nothing is asked.
 */
export function permissionsAllow(permissions: unknown): string {
  const FEATURES: Array<[string, string]> = [
    ['camera', 'camera'],
    ['microphone', 'microphone'],
    ['geolocation', 'geolocation'],
    ['clipboardWrite', 'clipboard-write'],
  ];
  const asked = typeof permissions === 'object' && permissions !== null && !Array.isArray(permissions) ? (permissions as Record<string, unknown>) : undefined;
  const granted: string[] = [];
  for (let i = 0; i < FEATURES.length; i++) {
    const feature = FEATURES[i] as [string, string];
    const value = asked !== undefined && Object.prototype.hasOwnProperty.call(asked, feature[0]) ? asked[feature[0]] : undefined;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) granted.push(feature[1]);
  }
  return granted.join('; ');
}

/**
 * The view's HTML with the policy as the first element of the document (right
 * after a leading doctype, so the page keeps its standards mode): a meta
 * policy covers only what the parser meets after it, and any policy the view
 * declares itself can only narrow this one. `prelude` (markup, the sandbox
 * proxy's own script) follows the policy, so it runs before anything of the view's.
 */
export function injectCsp(html: string, policy: string, prelude?: string): string {
  const escaped = policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const meta = '<meta http-equiv="Content-Security-Policy" content="' + escaped + '">' + (prelude === undefined ? '' : prelude);
  // A byte order mark means nothing in a string. Only the five characters the
  // HTML parser skips before a doctype may precede it: any other (a no-break
  // space, say, which \s would take) starts the body, and a meta policy
  // outside the head is ignored.
  const text = html.charCodeAt(0) === 0xfeff ? html.slice(1) : html;
  const doctype = /^[\t\n\f\r ]*<!doctype[^>]*>/i.exec(text);
  return doctype === null ? meta + text : doctype[0] + meta + text.slice(doctype[0].length);
}
