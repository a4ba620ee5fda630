// Run Python code under real MicroPython (its WebAssembly port, from npm), once per call:
//   node run.mjs SPEC.json
// SPEC: {"files": {"/path/in/micropython": "/path/on/host", ...}, "code": "python source"}.
// The files are copied into MicroPython's in-memory filesystem ("/" is on sys.path), then the
// code runs; its output goes to stdout. A Python exception prints its traceback on stderr and
// exits 1.
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";

const here = path.dirname(fileURLToPath(import.meta.url));
const { loadMicroPython } = await import(
    path.join(here, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"));

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const mp = await loadMicroPython({
    heapsize: 8 * 1024 * 1024,
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
});
for (const [target, source] of Object.entries(spec.files)) {
    mp.FS.mkdirTree(path.dirname(target));
    mp.FS.writeFile(target, fs.readFileSync(source));
}
try {
    mp.runPython(spec.code);
} catch (error) {
    if (error.name !== "PythonError") throw error;
    process.stderr.write(error.message + "\n");
    process.exit(1);
}
