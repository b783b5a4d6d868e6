/**
 * Tester groups as the rest of the service reads them (issue 20, docs/testers.md): distribution
 * resolves `--groups qa,beta` and a project's default groups to addresses through this, without
 * knowing how groups are stored. Implemented by core/tester-groups (DynamoTesterGroups).
 */
export interface TesterGroupRef {
  groupId: string;
  workspaceId: string;
  name: string;
}

export interface TesterGroupDirectory {
  /**
   * The workspace's groups named by `refs`, each a group id (`grp_…`) or a name (any case).
   * `missing` lists the refs that name no group of this workspace (another workspace's id too).
   */
  resolve(workspaceId: string, refs: readonly string[]): Promise<{ groups: TesterGroupRef[]; missing: string[] }>;
  /** Every tester address of a group (normalized), at most the group cap (1,000). */
  addresses(groupId: string): Promise<string[]>;
}
