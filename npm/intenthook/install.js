// intenthook's postinstall: puts the native binaries of this platform's
// package (@intenthook/<platform>-<arch>, an optional dependency npm chose
// by os and cpu; nothing is downloaded) in place of the Node launchers in
// bin/, so that node_modules/.bin/intenthook is the native binary itself and
// no Node process starts on an agent's tool call.
//
// On Windows npm runs bin entries through .cmd shims that start Node anyway,
// so the launchers stay. When install scripts are off (--ignore-scripts),
// the launchers stay too and run the binary through Node; `npm rebuild
// intenthook` (or `node node_modules/intenthook/install.js`) does this step
// later.
"use strict";
const fs = require("fs");
const path = require("path");

const names = ["intenthook", "intenthook-full", "intenthook-mcp", "intenthook-export", "intenthook-attest", "intenthook-console"];
const pkg = `@intenthook/${process.platform}-${process.arch}`;

function main() {
  if (process.platform === "win32") return;
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    console.error(`intenthook: no prebuilt binary for ${process.platform}-${process.arch} (${pkg} is not installed); the launchers in ${path.join(__dirname, "bin")} will say so when run`);
    return;
  }
  for (const name of names) {
    const from = path.join(dir, "bin", name);
    const to = path.join(__dirname, "bin", name);
    const tmp = `${to}.${process.pid}.tmp`;
    try {
      // A hard link where the file system allows, a copy where not; the
      // rename replaces the launcher in one step.
      try {
        fs.linkSync(from, tmp);
      } catch {
        fs.copyFileSync(from, tmp);
        fs.chmodSync(tmp, 0o755);
      }
      fs.renameSync(tmp, to);
    } catch (err) {
      try { fs.unlinkSync(tmp); } catch {}
      console.error(`intenthook: kept the Node launcher for ${name}: ${err.message}`);
    }
  }
}

main();
