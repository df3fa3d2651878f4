/**
 * Which npm packages make up the local engine on a machine: node-llama-cpp and the prebuilt llama.cpp
 * binaries for this platform and GPU only. node-llama-cpp lists every platform's and backend's binaries
 * as optional dependencies (some 700 MB on Linux x64, CUDA's alone 540 MB); they are left out, and the
 * ones this machine can use are named. Pure: the machine is given.
 */
import { SopworksError } from '../../../../ground/errors.ts';

/** The engine's version: the one the code is written and tested against. */
export const ENGINE_VERSION = '3.21.1';
export const ENGINE_PACKAGE = `node-llama-cpp@${ENGINE_VERSION}`;

export type Gpu = 'cuda' | 'vulkan' | 'metal' | 'none';

export interface Machine {
  platform: NodeJS.Platform;
  arch: string;
  gpu: Gpu;
}

/** The CPU build of each platform node-llama-cpp ships binaries for, and the GPU builds beside it. */
const BINARIES: Record<string, { cpu: string; gpu: Partial<Record<Gpu, string[]>> }> = {
  'linux-x64': { cpu: 'linux-x64', gpu: { cuda: ['linux-x64-cuda', 'linux-x64-cuda-ext'], vulkan: ['linux-x64-vulkan'] } },
  'linux-arm64': { cpu: 'linux-arm64', gpu: {} },
  'linux-arm': { cpu: 'linux-armv7l', gpu: {} },
  'linux-riscv64': { cpu: 'linux-riscv64', gpu: {} },
  // Apple silicon's build is Metal's; an Intel Mac runs on the CPU.
  'darwin-arm64': { cpu: 'mac-arm64-metal', gpu: {} },
  'darwin-x64': { cpu: 'mac-x64', gpu: {} },
  'win32-x64': { cpu: 'win-x64', gpu: { cuda: ['win-x64-cuda', 'win-x64-cuda-ext'], vulkan: ['win-x64-vulkan'] } },
  'win32-arm64': { cpu: 'win-arm64', gpu: {} },
};

/** The package specs to install, node-llama-cpp first; a platform without prebuilt binaries is refused. */
export function enginePackages(machine: Machine): string[] {
  const binaries = BINARIES[`${machine.platform}-${machine.arch}`];
  if (!binaries) {
    throw new SopworksError('NO_MODEL', `The local engine has no prebuilt binaries for ${machine.platform}-${machine.arch}.`, {
      hint: "Run the model in a server instead (Ollama, llama.cpp's llama-server) and point OPENAI_BASE_URL at it.",
    });
  }
  const gpu = binaries.gpu[machine.gpu] ?? [];
  return [ENGINE_PACKAGE, ...[binaries.cpu, ...gpu].map((name) => `@node-llama-cpp/${name}@${ENGINE_VERSION}`)];
}
