// Every project's limits. A timeout here only catches a hang. In CI the tests share 2 cores with three lanes beside
// them, and a test that takes 12 s alone takes 80 s there: a limit near that would fail on a busy machine, not on a hang.
export const limits = { testTimeout: 300_000, hookTimeout: 300_000 };
