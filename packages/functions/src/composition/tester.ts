import { DynamoMailSuppressions, DynamoStageSecret, DynamoTokenRepository } from "@hangar/core/dynamo";
import { INSTALL_LINK_SECRET } from "@hangar/core/testers";
import {
  defaultTesterAccessSettings,
  DynamoTesterDirectory,
  DynamoTesterSessions,
  runTesterMailTask,
  type TesterAccessDeps,
  type TesterMailTask,
} from "@hangar/core/tester-access";
import { DynamoDevices, type DeviceHandoffDeps } from "@hangar/core/devices";
import { randomBytes } from "node:crypto";
import { logger } from "../observability/logger";
import { lazyMailer } from "./accounts";
import { backgroundTasks } from "./background";
import { eventPublisher } from "./events";
import { joinLinks } from "./join-links";
import { once } from "./once";
import { getRuntime } from "./root";
import { buildVerdictDeps } from "./device-verdicts";

/** The payload key of the tester function's background invocations (composition/background.ts). */
export const TESTER_MAIL_KEY = "hangarTesterMail";

/**
 * The tester function's ports (core's TesterAccessDeps), built on the shared runtime: tester
 * sessions, the mailed tokens (the accounts' `token` items, tester purposes), the tester directory
 * on gsi1 (who is a tester, what was sent to them), tester-groups' invite links, the mailer with
 * the suppressed addresses it must skip, the four rules of the one limiter, the URL signer (icons)
 * and the install-link stage secret, and the background step of the mails.
 */
export const testerAccessDeps = once((): TesterAccessDeps => {
  const { db, settings, clock, limits, signer } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  const directory = new DynamoTesterDirectory(db, table);
  const built: TesterAccessDeps = {
    sessions: new DynamoTesterSessions(db, table),
    tokens: new DynamoTokenRepository(db, table),
    testers: directory,
    portal: directory,
    joinLinks: joinLinks(),
    mailer: lazyMailer(settings),
    suppressions: new DynamoMailSuppressions(db, table),
    // Never the address itself in the log.
    onMailSuppressed: (mail, suppression) =>
      logger.warn("tester mail not sent: the address is suppressed", { subject: mail.subject, reason: suppression.reason, since: suppression.since }),
    limiters: {
      signInPerClient: limits.rule("testerSignIn"),
      mailPerAddress: limits.rule("testerMailPerAddress"),
      joinPerClient: limits.rule("joinPerClient"),
      joinPerLink: limits.rule("joinPerLink"),
    },
    background: backgroundTasks<TesterMailTask>(
      settings.AWS_LAMBDA_FUNCTION_NAME,
      TESTER_MAIL_KEY,
      (task) => runTesterMailTask(built, task),
      (task) => ({ kind: task.kind }),
    ),
    signer,
    installLinkSecret: new DynamoStageSecret(db, table, INSTALL_LINK_SECRET),
    devices: buildVerdictDeps(),
    // tester.joined, when a join confirmation adds someone to a group.
    events: eventPublisher(),
    clock,
    secret: () => randomBytes(32).toString("base64url"),
    settings: defaultTesterAccessSettings,
  };
  return built;
});

/** The device cookie's hand-off from the share host's enroll result page (core's devices/device-handoff.ts). */
export const deviceHandoffDeps = once((): DeviceHandoffDeps => {
  const { db, settings, clock } = getRuntime();
  return { enrollments: new DynamoDevices(db, settings.HANGAR_TABLE_NAME), deviceCookieSecret: buildVerdictDeps().deviceCookieSecret, clock };
});
