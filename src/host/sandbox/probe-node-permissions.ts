/**
 * Whether Node's permission model works here as the fallback configures it (its flags changed across
 * Node versions): a Node child started with the fallback's options must write in its project and be
 * refused a write next to it. Checked once per process.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Availability } from './bubblewrap.ts';
import { nodePermissionOptions } from './node-permissions.ts';

const exec = promisify(execFile);
let probe: Promise<Availability> | null = null;

export function nodePermissionAvailability(): Promise<Availability> {
  probe ??= probeNodePermissions();
  return probe;
}

async function probeNodePermissions(): Promise<Availability> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sopworks-node-probe-'));
  const project = path.join(base, 'project');
  const tmp = path.join(base, 'tmp');
  fs.mkdirSync(project);
  fs.mkdirSync(tmp);
  const script = `
    const fs = require('node:fs');
    fs.writeFileSync(${JSON.stringify(path.join(project, 'inside'))}, '1');
    try { fs.writeFileSync(${JSON.stringify(path.join(base, 'outside'))}, '1'); console.log('outside written'); }
    catch (error) { console.log(error.code); }`;
  try {
    const { stdout } = await exec(process.execPath, ['-e', script], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: nodePermissionOptions({ projectDir: project, tmpDir: tmp }) },
      timeout: 10_000,
    });
    if (stdout.trim() === 'ERR_ACCESS_DENIED' && fs.existsSync(path.join(project, 'inside'))) return { available: true, version: process.version };
    return { available: false, reason: `Node ${process.version}'s permission model did not confine a test write (${stdout.trim() || 'no output'})` };
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')
      .at(-1);
    return { available: false, reason: `Node ${process.version} could not start with the permission model (${stderr})` };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
