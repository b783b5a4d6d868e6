// Issue 20: browser-safe schemas and answer types of tester-groups (imported by the web app; no node imports).
export {};
