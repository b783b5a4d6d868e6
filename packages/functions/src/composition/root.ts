import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { defaultUploadSettings, randomIds, systemClock, type UploadSettings } from "@hangar/core";
import { DynamoApiKeyRepository, DynamoFileRepository, DynamoRateLimiter } from "@hangar/core/dynamo";
import { S3ObjectStorage } from "@hangar/core/s3";
import { S3PackageInspector, type InspectionStats } from "@hangar/core/s3-inspector";
import { Settings } from "./settings.schema";

/**
 * The one composition root of the Lambda runtime (and of the local server, which runs the same
 * handlers): reads the environment once, builds SDK clients once per container, and wires
 * adapters into the use cases' ports. Built lazily so importing a handler does no I/O.
 */
export interface Runtime {
  settings: Settings;
  upload: UploadSettings;
  apiKeys: DynamoApiKeyRepository;
  rateLimiter: DynamoRateLimiter;
  files: DynamoFileRepository;
  storage: S3ObjectStorage;
  inspector: S3PackageInspector;
  clock: typeof systemClock;
  ids: typeof randomIds;
}

let runtime: Runtime | undefined;
let inspectionListener: ((stats: InspectionStats) => void) | undefined;

/** Lets observability record extraction figures without core knowing about metrics. */
export function onInspection(listener: (stats: InspectionStats) => void): void {
  inspectionListener = listener;
}

export function getRuntime(): Runtime {
  if (runtime) return runtime;
  // A bad environment is a deployment bug: let it surface as a 500, never as a client 400.
  const settings = Settings.parse(process.env);
  const region = settings.AWS_REGION;

  const dynamo = new DynamoDBClient({
    region,
    ...(settings.HANGAR_DYNAMODB_ENDPOINT ? { endpoint: settings.HANGAR_DYNAMODB_ENDPOINT } : {}),
  });
  const db = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
  const s3 = new S3Client({
    region,
    // Without this, SDK v3 signs a checksum of an empty body into presigned PUTs.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT, forcePathStyle: true } : {}),
  });

  const table = settings.HANGAR_TABLE_NAME;
  runtime = {
    settings,
    upload: { ...defaultUploadSettings, maxFileSize: settings.HANGAR_MAX_FILE_SIZE, pendingTtlSeconds: settings.HANGAR_PENDING_TTL_SECONDS },
    apiKeys: new DynamoApiKeyRepository(db, table),
    rateLimiter: new DynamoRateLimiter(db, table, {
      limit: settings.HANGAR_RATE_LIMIT,
      windowSeconds: settings.HANGAR_RATE_WINDOW_SECONDS,
    }),
    files: new DynamoFileRepository(db, table),
    storage: new S3ObjectStorage(s3, settings.HANGAR_BUCKET_NAME),
    inspector: new S3PackageInspector(s3, settings.HANGAR_BUCKET_NAME, (stats) => inspectionListener?.(stats)),
    clock: systemClock,
    ids: randomIds,
  };
  return runtime;
}
