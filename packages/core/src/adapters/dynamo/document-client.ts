import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import { marshall, unmarshall, type NativeAttributeValue } from "@aws-sdk/util-dynamodb";
import { HttpRequest } from "@smithy/protocol-http";
import type { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import http from "node:http";
import https from "node:https";
import { AwsServiceError, serviceErrorOf, signerFor, withRetries } from "../../aws/aws-json-call";

/**
 * What every repository needs of DynamoDB: the document client's `send`, given lib-dynamodb's
 * commands (`new GetCommand({...})`). Both the SDK's DynamoDBDocumentClient and DynamoJsonClient
 * below are one; tests may hand either to a repository.
 */
export type DocumentClient = Pick<DynamoDBDocumentClient, "send">;

export interface DynamoJsonClientOptions {
  region: string;
  /** DynamoDB Local's origin (`http://127.0.0.1:8000`); AWS's regional endpoint when unset. */
  endpoint?: string | undefined;
  /** Defaults to the environment (on Lambda: the function role's session credentials). */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
}

type Item = Record<string, NativeAttributeValue>;
type Wire = Record<string, any>;

// lib-dynamodb's `removeUndefinedValues: true`: an optional field left undefined is not written.
const m = (map: Item | undefined) => (map === undefined ? undefined : marshall(map, { removeUndefinedValues: true }));
const u = (item: Wire | undefined) => (item === undefined ? undefined : unmarshall(item));
const mapValues = <T, R>(record: Record<string, T> | undefined, f: (value: T) => R): Record<string, R> | undefined =>
  record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));

/** Key, Item and ExpressionAttributeValues of one request (or of one item of a transaction), marshalled. */
function itemRequest(r: Wire): Wire;
function itemRequest(r: Wire | undefined): Wire | undefined;
function itemRequest(r: Wire | undefined): Wire | undefined {
  return r === undefined ? undefined : { ...r, Key: m(r.Key), Item: m(r.Item), ExpressionAttributeValues: m(r.ExpressionAttributeValues), ExclusiveStartKey: m(r.ExclusiveStartKey) };
}

interface Operation {
  target: string;
  /** The document input (native values) → DynamoDB's JSON (AttributeValues). */
  input: (input: Wire) => Wire;
  /** DynamoDB's JSON → the document output. */
  output: (answer: Wire) => Wire;
}

const single = (target: string, field: "Item" | "Attributes"): Operation => ({
  target,
  input: itemRequest,
  output: (a) => ({ ...a, [field]: u(a[field]) }),
});
const page = (target: string): Operation => ({
  target,
  input: itemRequest,
  output: (a) => ({ ...a, Items: a.Items?.map(u), LastEvaluatedKey: u(a.LastEvaluatedKey) }),
});

/**
 * The operations our repositories send, with the fields lib-dynamodb marshalls in each (its
 * commands' inputKeyNodes/outputKeyNodes): keyed by lib-dynamodb's command class, so a command this
 * client does not know is refused rather than sent half-translated.
 */
const OPERATIONS = new Map<unknown, Operation>([
  [GetCommand, single("GetItem", "Item")],
  [PutCommand, single("PutItem", "Attributes")],
  [UpdateCommand, single("UpdateItem", "Attributes")],
  [DeleteCommand, single("DeleteItem", "Attributes")],
  [QueryCommand, page("Query")],
  [ScanCommand, page("Scan")],
  [
    BatchGetCommand,
    {
      target: "BatchGetItem",
      input: (i) => ({ ...i, RequestItems: mapValues(i.RequestItems as Record<string, Wire>, (t) => ({ ...t, Keys: t.Keys?.map(m) })) }),
      output: (a) => ({
        ...a,
        Responses: mapValues(a.Responses as Record<string, Wire[]>, (items) => items.map(u)),
        UnprocessedKeys: mapValues(a.UnprocessedKeys as Record<string, Wire>, (t) => ({ ...t, Keys: t.Keys?.map(u) })),
      }),
    },
  ],
  [
    BatchWriteCommand,
    {
      target: "BatchWriteItem",
      input: (i) => ({ ...i, RequestItems: mapValues(i.RequestItems as Record<string, Wire[]>, (list) => list.map(writeRequest(m))) }),
      output: (a) => ({ ...a, UnprocessedItems: mapValues(a.UnprocessedItems as Record<string, Wire[]>, (list) => list.map(writeRequest(u))) }),
    },
  ],
  [
    TransactWriteCommand,
    {
      target: "TransactWriteItems",
      input: (i) => ({
        ...i,
        TransactItems: (i.TransactItems as Wire[]).map((t) => ({
          ConditionCheck: itemRequest(t.ConditionCheck),
          Put: itemRequest(t.Put),
          Delete: itemRequest(t.Delete),
          Update: itemRequest(t.Update),
        })),
      }),
      output: (a) => a,
    },
  ],
  [
    TransactGetCommand,
    {
      target: "TransactGetItems",
      input: (i) => ({ ...i, TransactItems: (i.TransactItems as Wire[]).map((t) => ({ Get: itemRequest(t.Get) })) }),
      output: (a) => ({ ...a, Responses: (a.Responses as Wire[] | undefined)?.map((r) => ({ ...r, Item: u(r.Item) })) }),
    },
  ],
]);

function writeRequest(f: (map: any) => Wire | undefined) {
  return (r: Wire) =>
    r.PutRequest ? { PutRequest: { ...r.PutRequest, Item: f(r.PutRequest.Item) } } : { DeleteRequest: { ...r.DeleteRequest, Key: f(r.DeleteRequest?.Key) } };
}

/**
 * The table holds no binary attributes (secrets are stored as base64url strings): util-dynamodb
 * would make a Uint8Array a `B` value, which the JSON protocol wants base64-encoded; refused here
 * rather than written wrong.
 */
function noBinary(this: Record<string, unknown>, key: string, value: unknown): unknown {
  if (this[key] instanceof Uint8Array) throw new TypeError(`DynamoJsonClient: binary attribute ${key} is not supported`);
  return value;
}

/**
 * No answer for this long on a connection (DynamoDB answers in milliseconds; a dead keep-alive
 * socket after a Lambda thaw answers never): the attempt fails and, like a network error, is retried.
 */
const IDLE_TIMEOUT_MS = 10_000;

/**
 * DynamoDB's JSON protocol spoken directly: each call is one SigV4-signed POST on a keep-alive
 * connection, translated to and from lib-dynamodb's document shapes with util-dynamodb, as the
 * SDK's document client does. Why not the SDK client: its middleware stack (endpoint rules,
 * retry quota, serde, checksums, user agent) costs 0.7–0.8 ms of CPU per call on this machine
 * class against 0.24 ms here, measured around GetItem and UpdateItem on DynamoDB Local. A
 * complete makes eight calls, four of them at once on one thread, so that CPU was a third of its
 * time, and presign's two calls a third of its overhead over the storage floor (issue 18).
 *
 * Kept from the SDK, through what every signed call here shares (aws-json-call.ts: signerFor,
 * withRetries, serviceErrorOf): credentials from the environment, up to three attempts on
 * throttling, 5xx and network errors with jittered backoff, failures named by
 * DynamoDB's exception type (`ConditionalCheckFailedException`, `TransactionCanceledException` with
 * its `CancellationReasons`, a failed condition's `Item` as DynamoDB sent it), which is all
 * dynamo-errors.ts reads.
 */
export class DynamoJsonClient implements DocumentClient {
  private readonly url: URL;
  private readonly signer: SignatureV4;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(options: DynamoJsonClientOptions) {
    const { region } = options;
    this.url = new URL(options.endpoint ?? `https://dynamodb.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`);
    this.signer = signerFor({ service: "dynamodb", region, ...(options.credentials ? { credentials: options.credentials } : {}) });
    const secure = this.url.protocol === "https:";
    // The SDK's node handler keeps up to 50 sockets per origin alive; so do we.
    this.agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 50 }) : new http.Agent({ keepAlive: true, maxSockets: 50 });
    this.request = secure ? https.request : http.request;
  }

  // Typed as the document client's send (one overload per command); dispatched on the command's class.
  readonly send = ((command: { input: Wire }) => {
    const operation = OPERATIONS.get(command.constructor);
    if (!operation) return Promise.reject(new Error(`DynamoJsonClient cannot send ${command.constructor.name}`));
    const body = JSON.stringify(operation.input(command.input), noBinary);
    return withRetries(() => this.attempt(operation.target, body)).then(operation.output);
  }) as unknown as DocumentClient["send"];

  /** Closes the kept-alive connections (a one-off task that ends: the migration). */
  destroy(): void {
    this.agent.destroy();
  }

  private async attempt(target: string, body: string): Promise<Wire> {
    const { hostname, host, port, protocol } = this.url;
    const signed = await this.signer.sign(
      new HttpRequest({
        method: "POST",
        protocol,
        hostname,
        ...(port ? { port: Number(port) } : {}),
        path: "/",
        // A Content-Length, as the SDK sends (and signs): without one node:http would send the body chunked.
        headers: { host, "content-type": "application/x-amz-json-1.0", "content-length": String(Buffer.byteLength(body)), "x-amz-target": `DynamoDB_20120810.${target}` },
        body,
      }),
    );
    const { status, text, errorType } = await new Promise<{ status: number; text: string; errorType?: string }>((resolve, reject) => {
      const req = this.request({ hostname, port, method: "POST", path: "/", headers: signed.headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const errorType = res.headers["x-amzn-errortype"];
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), ...(typeof errorType === "string" ? { errorType } : {}) });
        });
        res.on("error", reject);
      });
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`DynamoDB ${target}: no answer for ${IDLE_TIMEOUT_MS} ms`)));
      req.on("error", reject);
      req.end(body);
    });
    if (status >= 300) throw serviceErrorOf("dynamodb", status, text, errorType);
    try {
      return text ? (JSON.parse(text) as Wire) : {};
    } catch {
      throw new AwsServiceError("SerializationException", `DynamoDB ${target} answered a body that is not JSON`, status);
    }
  }
}
