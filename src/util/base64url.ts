/** Base64url without padding (RFC 7515 §2), as JOSE and PKCE spell bytes. */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Base64url of a string's UTF-8 bytes. */
export function base64UrlText(text: string): string {
  return base64Url(new TextEncoder().encode(text));
}
