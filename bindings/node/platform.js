'use strict';
// Which platform package holds this machine's native files, and loading them: the `tsgraph`
// package carries only JavaScript; npm installs the one `@tsgraph/cli-<platform>` and
// `@tsgraph/node-<platform>` package whose `os`, `cpu` and `libc` fit (they are optional
// dependencies, so the others are skipped).

const fs = require('node:fs');
const path = require('node:path');

/** The platforms packages are built for (see docs/npm-release.md). */
const PLATFORMS = [
  'linux-x64-gnu',
  'linux-arm64-gnu',
  'linux-x64-musl',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64-msvc',
];

/**
 * Whether this Linux runs on musl: `ldd` says so (as the other napi packages check), else
 * Node's report has no glibc version. Glibc when neither can tell.
 */
function isMusl() {
  try {
    return fs.readFileSync('/usr/bin/ldd', 'utf8').includes('musl');
  } catch {
    // No ldd to read: ask Node.
  }
  try {
    const report = process.report && process.report.getReport();
    const header = report && (typeof report === 'string' ? JSON.parse(report) : report).header;
    return Boolean(header) && !header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

/** This machine's platform key, e.g. `linux-x64-gnu`. */
function platformKey() {
  const { platform, arch } = process;
  if (platform === 'linux') return `linux-${arch}-${isMusl() ? 'musl' : 'gnu'}`;
  if (platform === 'win32') return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

function notInstalled(what, pkg, key) {
  const supported = PLATFORMS.includes(key)
    ? `install ${pkg} (npm installs it with tsgraph unless optional dependencies are omitted)`
    : `tsgraph is not built for ${key}; it is built for ${PLATFORMS.join(', ')}`;
  return new Error(`tsgraph: no ${what} for ${key}: ${supported}`);
}

/**
 * The native addon's exports: the file `TSGRAPH_NATIVE` names (a development build), else
 * this platform's `@tsgraph/node-…` package.
 */
function loadNative() {
  const override = process.env.TSGRAPH_NATIVE;
  if (override) {
    const module = { exports: {} };
    process.dlopen(module, path.resolve(override));
    return module.exports;
  }
  const key = platformKey();
  const pkg = `@tsgraph/node-${key}`;
  try {
    return require(pkg);
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND') throw notInstalled('native addon', pkg, key);
    throw err;
  }
}

/** The `tsgraph` executable: `TSGRAPH_BINARY`, else this platform's `@tsgraph/cli-…` package's. */
function binaryPath() {
  if (process.env.TSGRAPH_BINARY) return path.resolve(process.env.TSGRAPH_BINARY);
  const key = platformKey();
  const pkg = `@tsgraph/cli-${key}`;
  const exe = process.platform === 'win32' ? 'tsgraph.exe' : 'tsgraph';
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND') throw notInstalled('executable', pkg, key);
    throw err;
  }
}

module.exports = { PLATFORMS, platformKey, loadNative, binaryPath };
