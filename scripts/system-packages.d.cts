/** A browser for the web demo's spec, and where it was found. */
export function findBrowser(): { path: string; from: string } | undefined;
