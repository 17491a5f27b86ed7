// Make the Pyodide memory snapshot the page's workers start from (build.py runs this).
//
//   node scripts/make_snapshot.mjs <pyodide dir> <output file>
//
// Starts the interpreter in Node from the site's own Pyodide files (the same
// pyodide.asm.wasm the browser runs) with `_makeSnapshot`, and writes
// `makeMemorySnapshot()`: the wasm memory of a started interpreter. Prints one JSON
// line: {bytes, buildId, pyodideVersion, ms}.
//
// The snapshot holds the bare interpreter, not numpy or our engine: in Pyodide 0.27.7 a
// snapshot restores the linear memory only, while numpy's compiled modules live in
// WebAssembly instances and table slots that are not restored (a snapshot made after
// `import numpy` fails at the first numpy call with "table index is out of bounds"), and
// the files of installed packages live in the JS-side file system, which is not restored
// either. docs/benchmarks-history.md ("Start-up: ...") has the measurements.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, outFile] = process.argv.slice(2);
if (!pyodideDir || !outFile) {
  console.error("usage: node scripts/make_snapshot.mjs <pyodide dir> <output file>");
  process.exit(2);
}
const indexURL = path.resolve(pyodideDir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const t0 = performance.now();
// The browser's defaults where Node's differ: Emscripten takes the program name (sys.argv,
// the environment's `_`) from Node's command line, which would put this machine's path
// into the snapshot. (The snapshot is not byte-for-byte reproducible: Python's hash seed
// and the names of its temporary files differ from run to run.)
const pyodide = await loadPyodide({
  indexURL, _makeSnapshot: true, _sysExecutable: "./this.program",
  stdout: () => {}, stderr: (s) => console.error(s),
});
// A snapshot must be of a working interpreter: run something before taking it.
const check = pyodide.runPython("import sys; f'{sys.version_info.major}.{sys.version_info.minor}'");
if (check !== "3.12") throw new Error("unexpected Python in the snapshot: " + check);
const snapshot = pyodide.makeMemorySnapshot();
// The header (pyodide.asm.js, makeSnapshot): magic, offsets, then the runtime's 256-bit
// build id as 8 little-endian 32-bit words, each written as 8 hex digits.
const words = new Uint32Array(snapshot.buffer, snapshot.byteOffset + 16, 8);
const buildId = Array.from(words, (w) => w.toString(16).padStart(8, "0")).join("");
fs.writeFileSync(outFile, snapshot);
console.log(JSON.stringify({
  bytes: snapshot.length, buildId, pyodideVersion: pyodide.version, ms: Math.round(performance.now() - t0),
}));
