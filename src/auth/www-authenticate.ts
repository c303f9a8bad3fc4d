/** What a `WWW-Authenticate: Bearer …` (or `DPoP …`, RFC 9449 §7.1) challenge tells the client (RFC 6750, RFC 9728). */
export interface BearerChallenge {
  /** Where the server's Protected Resource Metadata lives. */
  resourceMetadata?: string;
  /** The scopes this request needs, space-separated. */
  scope?: string;
  /** The OAuth error code, such as `invalid_token` or `insufficient_scope`. */
  error?: string;
}

/**
 * Reads the Bearer challenge out of a `WWW-Authenticate` header, which may
 * list several challenges (`Basic realm="x", Bearer scope="a b"`). Missing
 * or unreadable parts are left out rather than guessed at.
 */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge {
  return parseChallenge(header, ['bearer']);
}

/**
 * Reads the first challenge of the first of `schemes` (lower case, in order
 * of preference) that the header holds.
 */
export function parseChallenge(header: string | null | undefined, schemes: readonly string[]): BearerChallenge {
  if (!header) return {};
  const challenges = parseChallenges(header);
  for (const scheme of schemes) {
    const challenge = challenges.find((candidate) => candidate.scheme.toLowerCase() === scheme);
    if (!challenge) continue;
    const { resource_metadata: resourceMetadata, scope, error } = challenge.params;
    return { ...(resourceMetadata ? { resourceMetadata } : {}), ...(scope ? { scope } : {}), ...(error ? { error } : {}) };
  }
  return {};
}

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

const SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\s+(.*))?$/s;
const PARAM = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]*))$/s;

// RFC 9110 §11.6.1: challenges and their parameters are both separated by
// commas, so the header is split on the commas outside quoted strings and
// each piece is either "scheme [first-param]" or one more "name=value".
function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  for (const piece of splitOutsideQuotes(header)) {
    const param = PARAM.exec(piece);
    const current = challenges[challenges.length - 1];
    if (param && current) {
      addParam(current, param);
      continue;
    }
    const scheme = SCHEME.exec(piece);
    if (!scheme) continue;
    const challenge: Challenge = { scheme: scheme[1] as string, params: {} };
    challenges.push(challenge);
    const first = scheme[2] === undefined ? null : PARAM.exec(scheme[2].trim());
    if (first) addParam(challenge, first);
  }
  return challenges;
}

function addParam(challenge: Challenge, [, name, quoted, bare]: RegExpExecArray): void {
  challenge.params[(name as string).toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/gs, '$1') : (bare ?? '');
}

function splitOutsideQuotes(header: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const char = header[i] as string;
    if (quoted && char === '\\') {
      current += char + (header[++i] ?? '');
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      pieces.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  pieces.push(current.trim());
  return pieces.filter((piece) => piece !== '');
}
