#!/usr/bin/env node
// What `npm test` needs from the system beyond Node, checked before jest
// starts (npm's pretest) and by .ci/run: installed from Debian when this
// process may (root, with apt-get), otherwise one line saying what to install.
// CommonJS so that both a plain `node` and the TypeScript specs can load it.
'use strict';
const { execFileSync } = require('node:child_process');
const { accessSync, constants } = require('node:fs');
const { delimiter, join } = require('node:path');

/** Where a browser for the web demo's spec is looked for, in order, after $RXMCP_BROWSER. */
const BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

const NEEDS = [
  { package: 'tmux', usedBy: 'the CLI form spec, in a real terminal', present: () => onPath('tmux') },
  { package: 'chromium', usedBy: 'the web demo spec, in a real browser', present: () => findBrowser() !== undefined },
  { package: 'redis-server', usedBy: 'the Redis fleet specs, which start their own', present: () => onPath('redis-server') },
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, command)));
}

/**
 * The browser the web spec drives: $RXMCP_BROWSER when set (and then only
 * it), else the first of BROWSERS installed. Undefined when there is none.
 */
function findBrowser() {
  const chosen = process.env.RXMCP_BROWSER;
  if (chosen) return executable(chosen) ? { path: chosen, from: '$RXMCP_BROWSER' } : undefined;
  const path = BROWSERS.find(executable);
  return path ? { path, from: 'the system' } : undefined;
}

function missing() {
  return NEEDS.filter((need) => !need.present());
}

function main() {
  let absent = missing();
  if (absent.length === 0) return 0;
  const names = absent.map((need) => need.package);
  const mayInstall = process.getuid?.() === 0 && onPath('apt-get') && !process.env.RXMCP_BROWSER;
  if (mayInstall) {
    console.log(`npm test: installing ${names.join(', ')} from Debian (${absent.map((need) => need.usedBy).join('; ')})`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    try {
      // apt's chatter stays out of the way unless it fails.
      execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'pipe'], env });
      execFileSync('apt-get', ['install', '-y', '-qq', ...names], { stdio: ['ignore', 'ignore', 'pipe'], env });
    } catch (error) {
      const said = String(error.stderr ?? '').trim().split('\n').slice(-3).join(' | ');
      console.error(`apt-get failed${said ? `: ${said}` : ''}`);
    }
    absent = missing();
    if (absent.length === 0) return 0;
  }
  const still = absent.map((need) => need.package).join(' ');
  console.error(`npm test needs ${still} (${absent.map((need) => need.usedBy).join('; ')}): install with \`sudo apt-get install -y ${still}\`${absent.some((need) => need.package === 'chromium') ? ', or name a Chrome or Chromium in RXMCP_BROWSER' : ''}`);
  return 1;
}

module.exports = { findBrowser, NEEDS };

if (require.main === module) process.exitCode = main();
