/**
 * A real Python package source on this machine for the tests: pure-Python wheels the test writes
 * (a wheel is a zip of the modules plus METADATA, WHEEL and RECORD — written by python3's own zipfile,
 * since this machine has no `wheel` package to let `pip wheel` build one offline), served as a
 * --find-links page over loopback HTTP so the sandboxed pip reaches it like a registry. Nothing comes
 * from the internet: pip runs with --no-index.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './temp-dir.ts';

const exec = promisify(execFile);

export interface PythonIndex {
  /** The --find-links page. */
  url: string;
  /** Writes a wheel of one pure-Python module and lists it. */
  addWheel(name: string, version: string, module: string): Promise<string>;
  /** Writes a wheel holding these files (paths inside site-packages: a `.pth` runs at every start of Python). */
  addWheelFiles(name: string, version: string, files: Record<string, string>): Promise<string>;
  /** Writes a source distribution holding these files (under `<name>-<version>/`): pip builds it, running its build backend. */
  addSdist(name: string, version: string, files: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

const WRITE_WHEEL = `
import base64, hashlib, sys, zipfile
import json
out, name, version, source = sys.argv[1:5]
dist = f"{name}-{version}.dist-info"
given = json.load(open(source)) if source.endswith(".json") else {f"{name}.py": open(source).read()}
files = {
    **{path: text.encode() for path, text in given.items()},
    f"{dist}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n".encode(),
    f"{dist}/WHEEL": b"Wheel-Version: 1.0\\nGenerator: sopworks-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
record = "".join(f"{path},{digest(data)},{len(data)}\\n" for path, data in files.items()) + f"{dist}/RECORD,,\\n"
with zipfile.ZipFile(out, "w") as wheel:
    for path, data in files.items():
        wheel.writestr(path, data)
    wheel.writestr(f"{dist}/RECORD", record)
`;

/** What the page lists and serves: wheels and source distributions. */
const DISTRIBUTION = /\.(whl|tar\.gz)$/;

const WRITE_SDIST = `
import io, json, sys, tarfile
out, root, source = sys.argv[1:4]
with tarfile.open(out, "w:gz") as sdist:
    for path, text in json.load(open(source)).items():
        data = text.encode()
        info = tarfile.TarInfo(f"{root}/{path}")
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
`;

export async function startPythonIndex(): Promise<PythonIndex> {
  const dir = await tempDir('sopworks-wheels-');
  const server = http.createServer(async (req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    if (name === '') {
      const wheels = (await fs.readdir(dir)).filter((file) => DISTRIBUTION.test(file));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${wheels.map((w) => `<a href="${w}">${w}</a>`).join('\n')}</body></html>`);
      return;
    }
    const file = path.join(dir, path.basename(name));
    const data = await fs.readFile(file).catch(() => null);
    if (!data || !DISTRIBUTION.test(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    async addWheel(name, version, module) {
      const source = path.join(dir, `${name}.py.src`);
      await fs.writeFile(source, module);
      const wheel = path.join(dir, `${name}-${version}-py3-none-any.whl`);
      await exec('python3', ['-c', WRITE_WHEEL, wheel, name, version, source]);
      return wheel;
    },
    async addWheelFiles(name, version, files) {
      const source = path.join(dir, `${name}.files.json`);
      await fs.writeFile(source, JSON.stringify(files));
      const wheel = path.join(dir, `${name}-${version}-py3-none-any.whl`);
      await exec('python3', ['-c', WRITE_WHEEL, wheel, name, version, source]);
      return wheel;
    },
    async addSdist(name, version, files) {
      const source = path.join(dir, `${name}.sdist.json`);
      await fs.writeFile(source, JSON.stringify(files));
      const sdist = path.join(dir, `${name}-${version}.tar.gz`);
      await exec('python3', ['-c', WRITE_SDIST, sdist, `${name}-${version}`, source]);
      return sdist;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
