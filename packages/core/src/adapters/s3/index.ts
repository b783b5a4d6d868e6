export * from "./url-signer.s3";
export * from "./content-disposition";
export * from "./object-purger.s3";
