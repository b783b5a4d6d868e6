// Issue 20 (docs/testers.md): filled by the tester-access work; node code allowed here.
export {};
