#!/usr/bin/env node
// Packs the npm packages for this machine's platform from a cargo build:
//   tsgraph                       the JavaScript API and the `tsgraph` launcher (this folder)
//   @tsgraph/cli-<platform>       the tsgraph executable
//   @tsgraph/node-<platform>      the Node-API addon
// Usage: node scripts/pack.mjs [--profile release|debug] [--out DIR]
// Build first: cargo build --release -p tsgraph-cli -p tsgraph-node (or without --release
// for --profile debug). Prints the tarballs' paths, one a line. Nothing is published; see
// docs/npm-release.md for the release steps.

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { platformKey } = require('../platform.js');

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const workspace = resolve(here, '..', '..');

function argument(name, fallback) {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = process.argv[at + 1];
  if (value === undefined) fail(`${name} needs a value`);
  return value;
}

function fail(message) {
  process.stderr.write(`pack: ${message}\n`);
  process.exit(64);
}

const profile = argument('--profile', 'release');
if (!['release', 'debug'].includes(profile)) fail(`--profile is release or debug, not ${profile}`);
const out = resolve(argument('--out', join(workspace, 'target', 'npm')));
const main = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const cargoVersion = /\nversion = "([^"]+)"/.exec(readFileSync(join(workspace, 'Cargo.toml'), 'utf8'));
if (!cargoVersion || cargoVersion[1] !== main.version) {
  fail(`package.json's version ${main.version} is not the workspace's ${cargoVersion && cargoVersion[1]}`);
}

const key = platformKey();
const [os, cpu, libc] = key.split('-');
const target = join(workspace, 'target', profile);
const files = {
  linux: { exe: 'tsgraph', lib: 'libtsgraph_node.so' },
  darwin: { exe: 'tsgraph', lib: 'libtsgraph_node.dylib' },
  win32: { exe: 'tsgraph.exe', lib: 'tsgraph_node.dll' },
}[os];
if (!files) fail(`no packages are made for ${key}`);

/** The platform fields npm installs a package by: only the machine that fits takes it. */
function platformFields() {
  const fields = { os: [os], cpu: [cpu] };
  if (libc === 'gnu') fields.libc = ['glibc'];
  if (libc === 'musl') fields.libc = ['musl'];
  return fields;
}

/** Writes a platform package's folder: its package.json, README and one built file. */
function platformPackage(kind, built, inside, description, extra) {
  const name = `@tsgraph/${kind}-${key}`;
  const folder = join(out, `${kind}-${key}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(dirname(join(folder, inside)), { recursive: true });
  const source = join(target, built);
  if (!existsSync(source)) fail(`${source} is missing: build it first (cargo build ${profile === 'release' ? '--release ' : ''}-p tsgraph-cli -p tsgraph-node)`);
  copyFileSync(source, join(folder, inside));
  chmodSync(join(folder, inside), 0o755);
  stripDebugInfo(join(folder, inside));
  const manifest = {
    name,
    version: main.version,
    description,
    license: main.license,
    ...platformFields(),
    files: [inside],
    ...extra,
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(folder, 'README.md'), `# ${name}\n\n${description} Installed by the \`tsgraph\` package; not meant to be used directly.\n`);
  return folder;
}

/** Drops debug information (a debug build's is most of its size) where `strip` is at hand. */
function stripDebugInfo(file) {
  if (os === 'win32') return;
  try {
    execFileSync('strip', ['-S', file], { stdio: 'ignore' });
  } catch {
    // No strip: the package is larger, not different.
  }
}

function pack(folder) {
  // On Windows npm is a .cmd script, which only a shell runs.
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
    cwd: folder,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
  });
  return join(out, JSON.parse(output)[0].filename);
}

mkdirSync(out, { recursive: true });
const addonFile = `tsgraph.${key}.node`;
const folders = [
  platformPackage('cli', files.exe, `bin/${files.exe}`, `The tsgraph executable for ${key}.`, {}),
  platformPackage('node', files.lib, addonFile, `The tsgraph Node-API addon for ${key}.`, { main: addonFile }),
  here,
];
for (const folder of folders) process.stdout.write(`${pack(folder)}\n`);
