// Issue 20 (docs/testers.md): filled by the installs work; node code allowed here.
export {};
