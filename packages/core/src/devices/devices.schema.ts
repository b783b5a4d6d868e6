// Browser-safe (zod/mini + types only): the device routes' request schemas and answer types the web app imports.
export {};
