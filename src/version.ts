/** The version of rxmcp, reported to servers as the default `clientVersion`. Kept equal to package.json by a spec. */
export const VERSION = '0.1.0';
