// Issue 20 (docs/testers.md): filled by the distribution work; node code allowed here.
export {};
