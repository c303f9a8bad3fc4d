// A module-loading hook for the package specs: appends the URL of every
// module loaded through the ESM loader to the file named by RXMCP_LOAD_LOG
// (CommonJS files required by CommonJS are in Module._cache instead).
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.RXMCP_LOAD_LOG, url + '\n');
  return nextLoad(url, context);
}
