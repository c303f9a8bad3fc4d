// rxmcp/browser: signing in from a web page, and keeping the tokens there.
// Browser-only, and reached only through this entry, so the root entry stays as it was.

export { popupSignIn } from './popup-sign-in.js';
export type { PopupSignIn, PopupSignInOptions } from './popup-sign-in.js';
export { redirectSignIn } from './redirect-sign-in.js';
export type { RedirectSignIn, RedirectSignInOptions } from './redirect-sign-in.js';
export { finishSignIn } from './finish-sign-in.js';
export { BrowserTokenStore } from './browser-token-store.js';
export type { BrowserTokenStoreOptions } from './browser-token-store.js';
