/** How much one answer may bring, and for how long. */
export interface EgressBounds {
  /** An npm package's metadata or a pip page, in bytes (a pip page is held in memory to read its links). */
  metadataBytes: number;
  /** A file: a tarball, a wheel, a source distribution, in bytes. */
  fileBytes: number;
  /** One request upstream, from sending it to the answer's last byte, in milliseconds. */
  responseMs: number;
}

export const DEFAULT_EGRESS_BOUNDS: EgressBounds = { metadataBytes: 64 * 1024 * 1024, fileBytes: 2 * 1024 * 1024 * 1024, responseMs: 5 * 60 * 1000 };
