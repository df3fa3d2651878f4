/**
 * What the machine can give a local model: threads, memory, a context size. Chosen once when the model
 * loads and said on stderr, so a slow or refused run can be explained.
 */
import os from 'node:os';

/**
 * Threads for generation. On two cores or fewer, one: llama.cpp's own default there makes a small model
 * about 100× slower (its threads spin against each other and the rest of the machine). Above that, all
 * cores but one, leaving one for the company's own work (git, tests, the sandbox).
 */
export function chooseThreads(cores: number = os.availableParallelism()): number {
  return cores <= 2 ? 1 : cores - 1;
}

/** The context the model gets: what it was trained on, at most `ceiling`, at least `floor`. */
export function chooseContextSize(trainContextSize: number | undefined, ceiling: number, floor = 2048): number {
  const trained = trainContextSize ?? floor;
  return Math.max(Math.min(trained, ceiling), Math.min(floor, trained));
}

/** A size for a person, in decimal units as model files are published: "4.7 GB", "512 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}

/**
 * Why a model does not fit, or null when it does. `needed` is the engine's own estimate for the model
 * and its context; `available` is free memory (RAM, or VRAM when offloaded).
 */
export function memoryShortfall(needed: number, available: number, where: 'RAM' | 'GPU memory'): string | null {
  if (needed <= available) return null;
  return `the model needs about ${formatBytes(needed)} of ${where} with its context, and ${formatBytes(available)} is free`;
}
