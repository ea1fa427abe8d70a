#!/usr/bin/env node
// The Node launcher for one of intenthook's binaries: it runs the native
// binary of this platform's package with the same arguments, streams and
// exit code. install.js replaces it with the binary itself at install time;
// it stays where install scripts did not run (npm --ignore-scripts) and on
// Windows, and costs a Node start on every call there.
"use strict";
const path = require("path");
const { spawnSync } = require("child_process");

const name = path.basename(__filename, ".js");
const pkg = `@intenthook/${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? `${name}.exe` : name;
let bin;
try {
  bin = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  console.error(`intenthook: error: no prebuilt binary for ${process.platform}-${process.arch}: ${pkg} is not installed`);
  console.error("intenthook: hint: reinstall without --no-optional (npm installs the platform's package as an optional dependency), or see https://github.com/intenthook/intenthook/blob/main/docs/install.md");
  process.exit(1);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  console.error(`intenthook: error: ${bin}: ${r.error.message}`);
  process.exit(1);
}
if (r.signal) process.kill(process.pid, r.signal);
process.exit(r.status === null ? 1 : r.status);
