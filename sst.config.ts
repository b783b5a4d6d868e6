import type { SSTConfig } from "sst";
import { ApiStack } from "./stacks/api-stack";
import { StorageStack } from "./stacks/storage-stack";
import { WebStack } from "./stacks/web-stack";
import { configureApp } from "./stacks/app-defaults";

export default {
  config(input) {
    return { name: "hangar", region: input.region ?? process.env.AWS_REGION ?? "us-east-1" };
  },
  stacks(app) {
    configureApp(app);
    app.stack(StorageStack).stack(ApiStack).stack(WebStack);
  },
} satisfies SSTConfig;
