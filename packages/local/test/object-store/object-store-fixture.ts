import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import { startObjectStore, type RunningObjectStore } from "../../src/object-store";

export const REGION = "eu-west-1";
export const CREDENTIALS = { accessKeyId: "LOCALTESTKEY00000001", secretAccessKey: "local-test-secret-key/0123456789abcdef" };

/** An S3 client configured the way Hangar's service configures its client for the local store. */
export function s3Client(url: string, credentials = CREDENTIALS): S3Client {
  return new S3Client({
    region: REGION,
    endpoint: url,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

export interface StoreFixture {
  dataDir: string;
  store: RunningObjectStore;
  client: S3Client;
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

/** A store on an ephemeral port over a fresh temp data dir. */
export async function startStoreFixture(): Promise<StoreFixture> {
  const dataDir = await mkdtemp(join(tmpdir(), "hangar-object-store-"));
  const start = () => startObjectStore({ dataDir, region: REGION, credentials: CREDENTIALS, port: 0 });
  const fixture: StoreFixture = {
    dataDir,
    store: await start(),
    client: undefined as unknown as S3Client,
    async restart() {
      fixture.client.destroy();
      await fixture.store.close();
      fixture.store = await start();
      fixture.client = s3Client(fixture.store.url);
    },
    async dispose() {
      fixture.client.destroy();
      await fixture.store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  fixture.client = s3Client(fixture.store.url);
  return fixture;
}
