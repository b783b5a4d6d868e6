/*
 * The testers API's answers (issue 20), as core defines them in its browser-safe modules (types
 * only: nothing of them reaches the bundle), under the names the dashboard uses. The request
 * schemas the forms check with come from the same modules (`@hangar/core/*-schema`).
 */

export type {
  GroupDetail,
  GroupTester,
  Group,
  InviteLinkView as InviteLink,
  LastInstall,
  TestersAdded as AddTestersAnswer,
  WorkspaceTester,
} from "@hangar/core/tester-groups-schema";
export type {
  DistributionAnswer as DistributeAnswer,
  DistributionsAnswer,
  DistributionView as Distribution,
  RecipientStatus,
} from "@hangar/core/distribution-schema";
export type { DeviceFamily, FileInstall, InstallVia, TesterInstall } from "@hangar/core/installs-schema";
export type { AppPageSettings as AppPageInput, AppPageView as AppPage, CreatedUpdateToken, UpdateTokenView as UpdateToken } from "@hangar/core/app-pages-schema";

/** The body of a distribute as the dashboard sends it (core's `DistributeInput`, its defaults left to the server). */
export interface DistributeInput {
  groups?: string[];
  testers?: string[];
  notify?: boolean;
  message?: string;
}
