// Issue 20: browser-safe schemas and answer types of distribution (imported by the web app; no node imports).
export {};
