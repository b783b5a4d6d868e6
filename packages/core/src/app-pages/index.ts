// Issue 20 (docs/testers.md): filled by the app-pages work; node code allowed here.
export {};
