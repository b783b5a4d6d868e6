import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HeadObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
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

/** The S3 error a request fails with; a request that succeeds fails the test. */
export async function s3ErrorOf(promise: Promise<unknown>): Promise<S3ServiceException> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof S3ServiceException) return error;
    throw error;
  }
  throw new Error("expected the request to fail");
}

/** Whether a refused upload really left nothing behind: HEAD's 404 is false, any other failure is thrown. */
export async function objectExists(client: S3Client, bucket: string, key: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
    throw error;
  }
}
