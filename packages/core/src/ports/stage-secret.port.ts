/**
 * A random secret of the deployment (one per stage), for MACs that only this service must be able
 * to make: page cursors. Created on first use and never rotated by the service itself; replacing
 * it only invalidates what it signed (cursors: a list starts again from its first page).
 */
export interface StageSecret {
  /** 32 random bytes, the same for every function of the stage. */
  bytes(): Promise<Uint8Array>;
}
