/**
 * Which GPU backend this machine can use, judged from what is installed — the driver's files, not a
 * probe of the device — to choose the engine's binaries (engine-packages.ts). node-llama-cpp makes the
 * final choice when the model loads, and falls back to the CPU build, which is always installed.
 */
import fs from 'node:fs';
import type { Gpu } from './engine-packages.ts';

const LIBRARY_DIRS = ['/usr/lib', '/usr/lib64', '/usr/local/lib', '/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/lib/x86_64-linux-gnu'];

export function detectGpu(platform: NodeJS.Platform = process.platform, exists: (file: string) => boolean = fs.existsSync): Gpu {
  if (platform === 'darwin') return 'metal';
  if (platform === 'win32') return exists('C:\\Windows\\System32\\nvcuda.dll') ? 'cuda' : exists('C:\\Windows\\System32\\vulkan-1.dll') ? 'vulkan' : 'none';
  // The NVIDIA kernel driver announces itself here; its user-space library sits beside the others.
  if (exists('/proc/driver/nvidia/version') || LIBRARY_DIRS.some((dir) => exists(`${dir}/libcuda.so.1`))) return 'cuda';
  if (LIBRARY_DIRS.some((dir) => exists(`${dir}/libvulkan.so.1`))) return 'vulkan';
  return 'none';
}
