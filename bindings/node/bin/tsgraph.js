#!/usr/bin/env node
'use strict';
// `npx tsgraph …`: runs this platform's tsgraph executable with the same arguments and
// standard streams (the MCP and language servers speak over them), and exits as it exits.

const { spawnSync } = require('node:child_process');
const { binaryPath } = require('../platform.js');

let binary;
try {
  binary = binaryPath();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
const run = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
if (run.error) {
  process.stderr.write(`tsgraph: could not run ${binary}: ${run.error.message}\n`);
  process.exit(1);
}
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status === null ? 1 : run.status);
