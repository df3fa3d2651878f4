/**
 * Recommended models, by short name: instruction-tuned coder models in one GGUF file each, at the
 * Q4_K_M quantization (the usual balance of size and quality). `bytes` is the published file size,
 * shown before a pull; the download is checked against the size the server sends (and a sha256 when one
 * is given). `memory` is what the model needs with a context of a few thousand tokens.
 */
export interface CatalogEntry {
  name: string;
  url: string;
  bytes: number;
  memoryBytes: number;
  note: string;
  sha256: string | null;
}

/** Decimal, as the files' sizes are published. */
const GB = 1e9;
const HF = 'https://huggingface.co/bartowski';

export const CATALOG: readonly CatalogEntry[] = [
  {
    name: 'qwen2.5-coder-1.5b',
    url: `${HF}/Qwen2.5-Coder-1.5B-Instruct-GGUF/resolve/main/Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf`,
    bytes: Math.round(0.99 * GB),
    memoryBytes: 2 * GB,
    note: 'fast on any CPU; small projects, more re-asks',
    sha256: null,
  },
  {
    name: 'qwen2.5-coder-3b',
    url: `${HF}/Qwen2.5-Coder-3B-Instruct-GGUF/resolve/main/Qwen2.5-Coder-3B-Instruct-Q4_K_M.gguf`,
    bytes: Math.round(1.93 * GB),
    memoryBytes: 3 * GB,
    note: 'a laptop CPU',
    sha256: null,
  },
  {
    name: 'qwen2.5-coder-7b',
    url: `${HF}/Qwen2.5-Coder-7B-Instruct-GGUF/resolve/main/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf`,
    bytes: Math.round(4.68 * GB),
    memoryBytes: 6 * GB,
    note: 'the default recommendation; a GPU with 8 GB, or a patient CPU',
    sha256: null,
  },
  {
    name: 'qwen2.5-coder-14b',
    url: `${HF}/Qwen2.5-Coder-14B-Instruct-GGUF/resolve/main/Qwen2.5-Coder-14B-Instruct-Q4_K_M.gguf`,
    bytes: Math.round(8.99 * GB),
    memoryBytes: 11 * GB,
    note: 'best results; a GPU with 12 GB or more',
    sha256: null,
  },
];

export const DEFAULT_PULL = 'qwen2.5-coder-7b';

export const catalogEntry = (name: string): CatalogEntry | undefined => CATALOG.find((e) => e.name === name.toLowerCase());
