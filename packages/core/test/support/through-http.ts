/**
 * The use cases as a request reaches them: each takes typed input that the HTTP layer parsed
 * with the schemas of packages/functions/src/route-input/ (body, query, path parameters; a
 * malformed id answers the resource's 404). These wrappers do exactly that parsing with the same
 * core schemas, so tests written against raw requests (a body with a bad field, an id of the
 * wrong shape) keep asserting the answers clients get, while the use cases themselves take
 * typed objects.
 */
import * as core from "../../src";
import * as accounts from "../../src/accounts";
import { SessionNotFoundError } from "../../src/accounts/account-errors";
import * as links from "../../src/links";
import { parseInput } from "../../src/validation/parse-input";

type Schema = Parameters<typeof parseInput>[0];

/** A path parameter as the params middleware reads it: its schema, else the resource's 404. */
function param<S extends Schema>(schema: S, raw: unknown, notFound: () => Error) {
  try {
    return parseInput(schema, raw);
  } catch (error) {
    throw error instanceof core.ValidationError ? notFound() : error;
  }
}

type Rest<F> = F extends (deps: infer D, ...rest: infer R) => unknown ? [D, R] : never;
type Deps<F> = Rest<F>[0];

// Accounts.
export const signUp = async (deps: Deps<typeof accounts.signUp>, raw: unknown, client: accounts.ClientInfo, l: accounts.AccountLinks) =>
  accounts.signUp(deps, parseInput(accounts.SignUp, raw), client, l);
export const signIn = async (deps: Deps<typeof accounts.signIn>, raw: unknown, client: accounts.ClientInfo, deviceToken?: string) =>
  accounts.signIn(deps, parseInput(accounts.SignIn, raw), client, deviceToken);
export const verifyEmail = async (deps: Deps<typeof accounts.verifyEmail>, raw: unknown) => accounts.verifyEmail(deps, parseInput(accounts.TokenOnly, raw));
export const resendVerification = async (deps: Deps<typeof accounts.resendVerification>, raw: unknown, client: accounts.ClientInfo, l: accounts.AccountLinks) =>
  accounts.resendVerification(deps, parseInput(accounts.EmailOnly, raw), client, l);
export const requestPasswordReset = async (deps: Deps<typeof accounts.requestPasswordReset>, raw: unknown, client: accounts.ClientInfo, l: accounts.AccountLinks) =>
  accounts.requestPasswordReset(deps, parseInput(accounts.EmailOnly, raw), client, l);
export const confirmPasswordReset = async (deps: Deps<typeof accounts.confirmPasswordReset>, raw: unknown, client?: accounts.ClientInfo) =>
  accounts.confirmPasswordReset(deps, parseInput(accounts.ResetConfirm, raw), client);
export const changePassword = async (deps: Deps<typeof accounts.changePassword>, session: accounts.SessionContext, raw: unknown) =>
  accounts.changePassword(deps, session, parseInput(accounts.ChangePassword, raw));
export const updateProfile = async (deps: Deps<typeof accounts.updateProfile>, session: accounts.SessionContext, raw: unknown) =>
  accounts.updateProfile(deps, session, parseInput(accounts.ProfileInput, raw));
export const endSession = async (deps: Deps<typeof accounts.endSession>, session: accounts.SessionContext, sessionId: string | undefined) =>
  accounts.endSession(deps, session, param(accounts.SessionRef, { sessionId }, () => new SessionNotFoundError()));

// Dashboard.
const projectRef = (projectId: string | undefined) => param(core.ProjectRef, { projectId }, core.projectNotFound);
const keyRef = (clientId: string | undefined) => param(core.KeyRef, { clientId }, core.keyNotFound);
const fileRef = (fileId: string | undefined) => param(core.FileRef, { fileId }, core.fileNotFound);

/** Who asks: a user id (as the tests name their people) or a whole Actor. */
type Who = string | core.Actor;
const actor = (who: Who): core.Actor => (typeof who === "string" ? { userId: who } : who);

export const createProject = async (deps: Deps<typeof core.createProject>, who: Who, raw: unknown) =>
  core.createProject(deps, actor(who), parseInput(core.CreateProject, raw));
export const listProjects = async (deps: Deps<typeof core.listProjects>, who: Who, rawQuery: unknown = {}) =>
  core.listProjects(deps, actor(who), parseInput(core.WorkspaceQuery, rawQuery));
export const getProject = async (deps: Deps<typeof core.getProject>, who: Who, projectId: string | undefined) =>
  core.getProject(deps, actor(who), projectRef(projectId));
export const updateProject = async (deps: Deps<typeof core.updateProject>, who: Who, projectId: string | undefined, raw: unknown) => {
  const body = parseInput(core.UpdateProject, raw);
  return core.updateProject(deps, actor(who), { ...projectRef(projectId), ...body });
};
export const deleteProject = async (deps: Deps<typeof core.deleteProject>, who: Who, projectId: string | undefined, raw: unknown, budget: core.Budget) => {
  const body = parseInput(core.DeleteProject, raw);
  return core.deleteProject(deps, actor(who), { ...projectRef(projectId), ...body }, budget);
};
export const listProjectFiles = async (
  deps: Deps<typeof core.listProjectFiles>,
  who: Who,
  projectId: string | undefined,
  rawQuery: unknown,
  bases: core.LinkBases,
) => {
  const query = parseInput(core.PageQuery, rawQuery);
  return core.listProjectFiles(deps, actor(who), { ...projectRef(projectId), ...query }, bases);
};
export const latestFiles = async (deps: Deps<typeof core.latestFiles>, who: Who, rawQuery: unknown, bases: core.LinkBases) =>
  core.latestFiles(deps, actor(who), parseInput(core.WorkspacePageQuery, rawQuery), bases);
export const getFile = async (deps: Deps<typeof core.getFile>, who: Who, fileId: string | undefined, bases: core.LinkBases) =>
  core.getFile(deps, actor(who), fileRef(fileId), bases);
export const deleteFile = async (deps: Deps<typeof core.deleteFile>, who: Who, fileId: string | undefined) =>
  core.deleteFile(deps, actor(who), fileRef(fileId));
export const createKey = async (deps: Deps<typeof core.createKey>, who: Who, raw: unknown) =>
  core.createKey(deps, actor(who), parseInput(core.CreateKey, raw));
export const listKeys = async (deps: Deps<typeof core.listKeys>, who: Who, rawQuery: unknown = {}) =>
  core.listKeys(deps, actor(who), parseInput(core.WorkspaceQuery, rawQuery));
export const revokeKey = async (deps: Deps<typeof core.revokeKey>, who: Who, clientId: string | undefined) =>
  core.revokeKey(deps, actor(who), keyRef(clientId));
export const regenerateKey = async (deps: Deps<typeof core.regenerateKey>, who: Who, clientId: string | undefined) =>
  core.regenerateKey(deps, actor(who), keyRef(clientId));
export const keyUsage = async (deps: Deps<typeof core.keyUsage>, who: Who, clientId: string | undefined) =>
  core.keyUsage(deps, actor(who), keyRef(clientId));
export const deleteAccount = async (deps: Deps<typeof core.deleteAccount>, who: Who, raw: unknown, budget: core.Budget) =>
  core.deleteAccount(deps, actor(who), parseInput(core.DeleteAccount, raw), budget);

// Share link controls.
const sharedFileRef = (fileId: string | undefined) => param(core.FileRef, { fileId }, links.linkNotFound);
export const updateShareSettings = async (deps: links.LinkDeps, who: Who, fileId: string | undefined, raw: unknown, bases: core.LinkBases) => {
  const body = parseInput(links.ShareSettings, raw);
  return links.updateShareSettings(deps, actor(who), { ...sharedFileRef(fileId), ...body }, bases);
};
export const regenerateShareLink = async (deps: links.LinkDeps, who: Who, fileId: string | undefined, bases: core.LinkBases) =>
  links.regenerateShareLink(deps, actor(who), sharedFileRef(fileId), bases);
