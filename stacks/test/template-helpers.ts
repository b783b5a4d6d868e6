import path from "node:path";

/** Just enough of a CloudFormation template to query it in tests. */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
  Principal?: unknown;
}

export const ofType = (t: CfnTemplate, type: string): [string, CfnResource][] =>
  Object.entries(t.Resources).filter(([, r]) => r.Type === type);

export const props = <T = Record<string, unknown>>(r: CfnResource | undefined): T =>
  (r?.Properties ?? {}) as T;

export const asList = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);

/** SST's deployed handler string for a source handler string: `a/b.handler.handler` → `a/b-handler.handler`. */
export function deployedHandler(handler: string): string {
  const parsed = path.posix.parse(handler);
  return path.posix.join(parsed.dir, parsed.name.replace(".", "-") + parsed.ext);
}

/** Our functions: the ones built from the repo (SST's and CDK's helpers use `index.*`). */
export function ownFunctions(t: CfnTemplate): [string, CfnResource][] {
  return ofType(t, "AWS::Lambda::Function").filter(([, r]) => {
    const handler = props(r).Handler;
    return typeof handler === "string" && /^(packages|stacks)\//.test(handler);
  });
}

export function functionByHandler(t: CfnTemplate, handler: string): [string, CfnResource] {
  const found = ownFunctions(t).find(([, r]) => props(r).Handler === deployedHandler(handler));
  if (!found) throw new Error(`no function with handler ${handler}`);
  return found;
}

/** Statements of every AWS::IAM::Policy attached to the role of function `fnId`. */
export function roleStatements(t: CfnTemplate, fnId: string): Statement[] {
  const role = props<{ Role: { "Fn::GetAtt": [string, string] } }>(t.Resources[fnId]).Role["Fn::GetAtt"][0];
  return ofType(t, "AWS::IAM::Policy")
    .filter(([, p]) => asList(props<{ Roles: unknown[] }>(p).Roles).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: role })))
    .flatMap(([, p]) => props<{ PolicyDocument: { Statement: Statement[] } }>(p).PolicyDocument.Statement);
}

/** Every identity-policy statement of a template (inline role policies included). */
export function allIdentityStatements(t: CfnTemplate): Statement[] {
  const fromPolicies = ofType(t, "AWS::IAM::Policy").flatMap(
    ([, p]) => props<{ PolicyDocument: { Statement: Statement[] } }>(p).PolicyDocument.Statement,
  );
  const inline = ofType(t, "AWS::IAM::Role").flatMap(([, r]) =>
    (props<{ Policies?: { PolicyDocument: { Statement: Statement[] } }[] }>(r).Policies ?? []).flatMap(
      (p) => p.PolicyDocument.Statement,
    ),
  );
  return [...fromPolicies, ...inline];
}

/** Route key → logical id of the function its integration invokes. */
export function routeTargets(t: CfnTemplate): Map<string, string> {
  const integrations = new Map(ofType(t, "AWS::ApiGatewayV2::Integration"));
  const targets = new Map<string, string>();
  for (const [, route] of ofType(t, "AWS::ApiGatewayV2::Route")) {
    const p = props<{ RouteKey: string; Target: { "Fn::Join": [string, [string, { Ref: string }]] } }>(route);
    const integrationId = p.Target["Fn::Join"][1][1].Ref;
    const uri = props<{ IntegrationUri: { "Fn::GetAtt": [string, string] } }>(integrations.get(integrationId)).IntegrationUri;
    targets.set(p.RouteKey, uri["Fn::GetAtt"][0]);
  }
  return targets;
}
