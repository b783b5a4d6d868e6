export * from "./object-storage.s3";
export * from "./content-disposition";
