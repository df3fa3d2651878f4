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

/** One size of Qwen2.5-Coder-Instruct, from bartowski's GGUF repositories (`size` as their files spell it). */
function qwenCoder(size: string, fileGb: number, memoryGb: number, note: string): CatalogEntry {
  const model = `Qwen2.5-Coder-${size}-Instruct`;
  return {
    name: `qwen2.5-coder-${size.toLowerCase()}`,
    url: `${HF}/${model}-GGUF/resolve/main/${model}-Q4_K_M.gguf`,
    bytes: Math.round(fileGb * GB),
    memoryBytes: memoryGb * GB,
    note,
    sha256: null,
  };
}

export const CATALOG: readonly CatalogEntry[] = [
  qwenCoder('1.5B', 0.99, 2, 'fast on any CPU; small projects, more re-asks'),
  qwenCoder('3B', 1.93, 3, 'a laptop CPU'),
  qwenCoder('7B', 4.68, 6, 'the default recommendation; a GPU with 8 GB, or a patient CPU'),
  qwenCoder('14B', 8.99, 11, 'best results; a GPU with 12 GB or more'),
];

export const DEFAULT_PULL = 'qwen2.5-coder-7b';

export const catalogEntry = (name: string): CatalogEntry | undefined => CATALOG.find((e) => e.name === name.toLowerCase());
