// Issue 20: browser-safe schemas and answer types of tester-access (imported by the web app; no node imports).
export {};
