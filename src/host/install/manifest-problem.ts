/** A manifest sopworks cannot read: the install fails with this, and the Engineer gets it as a bug. */
export class ManifestProblem extends Error {}
