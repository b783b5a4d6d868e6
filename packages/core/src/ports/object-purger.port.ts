/** Deletes objects for good, every version of every key (the bucket is versioned). */
export interface ObjectPurger {
  /**
   * Deletes up to one listing page of object versions and delete markers under `prefix`.
   * Returns how many were deleted and whether more may remain.
   */
  purgePrefix(prefix: string): Promise<{ deleted: number; more: boolean }>;
}
