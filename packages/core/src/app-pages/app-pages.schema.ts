// Issue 20: browser-safe schemas and answer types of app-pages (imported by the web app; no node imports).
export {};
