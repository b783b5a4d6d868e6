// Issue 20 (docs/testers.md): filled by the tester-groups work; node code allowed here.
export {};
