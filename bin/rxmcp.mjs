#!/usr/bin/env node
// The rxmcp command line. The library itself never loads this.
import { main } from '../dist/esm/cli/main.js';

process.exit(await main(process.argv.slice(2)));
